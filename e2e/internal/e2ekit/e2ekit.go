// Package e2ekit runs the dasch binary for end-to-end tests of real
// clients: it installs a test's pinned npm packages, builds bin/dasch,
// runs its commands and serves on loopback, and reads the client's JSON
// summary.
package e2ekit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// NPMCI installs the pinned client from package-lock.json, preferring the
// machine's npm cache.
func NPMCI(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
}

// Build compiles cmd/dasch into the test's temporary directory.
func Build(t *testing.T, ctx context.Context) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dasch")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "../../cmd/dasch")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Run runs the dasch binary and returns its stdout; failure ends the test.
func Run(t *testing.T, ctx context.Context, bin string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dasch %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// LastLine is the last line of s.
func LastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Serve starts `dasch serve` on a free loopback port, with flags added
// to its command line, and returns its base URL. At cleanup the server
// gets SIGINT and must exit cleanly.
func Serve(t *testing.T, ctx context.Context, bin, storeURL string, flags ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--store", storeURL, "--listen", "127.0.0.1:0"}, flags...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				select {
				case base <- addr:
				default:
				}
			}
		}
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if err := cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("stop serve: %v", err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v: %s", err, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("serve did not shut down on SIGINT: %s", stderr.String())
		}
	})
	select {
	case b := <-base:
		return b
	case <-ctx.Done():
		t.Fatalf("serve did not start: %s", stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not start in 30s: %s", stderr.String())
	}
	return ""
}

// Decode reads one summary entry into v; false when the call failed (already
// reported) or the entry does not decode.
func Decode(t *testing.T, summary map[string]json.RawMessage, name string, v any) bool {
	t.Helper()
	raw, ok := summary[name]
	if !ok {
		return false
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Errorf("summary %s: %v: %s", name, err, raw)
		return false
	}
	return true
}

// Show renders v as JSON for messages.
func Show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Client runs `node client.mjs args...` and returns its summary, one entry
// per call. A failed call (listed under "errors") is reported as a test
// error naming the client, and its entry is absent.
func Client(t *testing.T, ctx context.Context, name string, args ...string) map[string]json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", append([]string{"client.mjs"}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var summary map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
		t.Fatalf("node client.mjs: %v; no summary (%v)\nstdout: %s\nstderr: %s", runErr, err, stdout.String(), stderr.String())
	}
	var failed map[string]string
	if err := json.Unmarshal(summary["errors"], &failed); err != nil {
		t.Fatalf("summary errors: %v: %s", err, summary["errors"])
	}
	for _, call := range slices.Sorted(maps.Keys(failed)) {
		t.Errorf("%s %s failed:\n%s", name, call, failed[call])
	}
	if runErr != nil && len(failed) == 0 {
		t.Fatalf("node client.mjs: %v\n%s", runErr, stderr.String())
	}
	return summary
}
