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
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
	s, err := startServe(ctx, bin, storeURL, flags)
	if s != nil {
		t.Cleanup(func() {
			if err := s.stop(); err != nil {
				t.Error(err)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return s.base
}

// ServeAll is Serve for several stores at once: the servers start
// together and stop together at cleanup, as a store's shutdown takes
// seconds.
func ServeAll(t *testing.T, ctx context.Context, bin string, storeURLs []string, flags ...string) []string {
	t.Helper()
	servers := make([]*server, len(storeURLs))
	errs := make([]error, len(storeURLs))
	var wg sync.WaitGroup
	for i, u := range storeURLs {
		wg.Go(func() { servers[i], errs[i] = startServe(ctx, bin, u, flags) })
	}
	wg.Wait()
	t.Cleanup(func() {
		stopErrs := make([]error, len(servers))
		var wg sync.WaitGroup
		for i, s := range servers {
			if s != nil {
				wg.Go(func() { stopErrs[i] = s.stop() })
			}
		}
		wg.Wait()
		for _, err := range stopErrs {
			if err != nil {
				t.Error(err)
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	bases := make([]string, len(servers))
	for i, s := range servers {
		bases[i] = s.base
	}
	return bases
}

// server is a running `dasch serve`.
type server struct {
	base   string
	cmd    *exec.Cmd
	done   chan error
	stderr *syncBuffer
}

// startServe starts a server and waits for its address. On an error
// after the start it returns the server too, to be stopped.
func startServe(ctx context.Context, bin, storeURL string, flags []string) (*server, error) {
	cmd := exec.Command(bin, append([]string{"serve", "--store", storeURL, "--listen", "127.0.0.1:0"}, flags...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, done: make(chan error, 1), stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
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
		s.done <- cmd.Wait()
	}()
	select {
	case s.base = <-base:
		return s, nil
	case <-ctx.Done():
		return s, fmt.Errorf("serve %s did not start: %s", storeURL, s.stderr)
	case <-time.After(30 * time.Second):
		return s, fmt.Errorf("serve %s did not start in 30s: %s", storeURL, s.stderr)
	}
}

// stop sends SIGINT and waits for a clean exit.
func (s *server) stop() error {
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop serve: %v", err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("serve exited with %v: %s", err, s.stderr)
		}
		return nil
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("serve did not shut down on SIGINT: %s", s.stderr)
	}
}

// syncBuffer is a bytes.Buffer safe to read while a process writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
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
	return Script(t, ctx, name, "client.mjs", args...)
}

// Script is Client for another script of the test's directory.
func Script(t *testing.T, ctx context.Context, name, script string, args ...string) map[string]json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var summary map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
		t.Fatalf("node %s: %v; no summary (%v)\nstdout: %s\nstderr: %s", script, runErr, err, stdout.String(), stderr.String())
	}
	var failed map[string]string
	if err := json.Unmarshal(summary["errors"], &failed); err != nil {
		t.Fatalf("summary errors: %v: %s", err, summary["errors"])
	}
	for _, call := range slices.Sorted(maps.Keys(failed)) {
		t.Errorf("%s %s failed:\n%s", name, call, failed[call])
	}
	if runErr != nil && len(failed) == 0 {
		t.Fatalf("node %s: %v\n%s", script, runErr, stderr.String())
	}
	return summary
}
