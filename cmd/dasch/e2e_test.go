package main_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/internal/syncbuf"
	"github.com/dasch-labs/dasch/internal/tempdir"
)

// These tests run the real binary, as a user would: build, migrate, ingest
// the demo fixtures, create a key, serve, and talk JSON-RPC over loopback.

var bin string

func TestMain(m *testing.M) {
	dir, _, err := tempdir.Make("dasch-bin-*")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir.Path, "dasch")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	dir.Remove()
	os.Exit(code)
}

func dasch(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

func mustDasch(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := dasch(t, args...)
	if err != nil {
		t.Fatalf("dasch %s: %v\n%s\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// serve starts `dasch serve` (with extra flags) and returns its base URL and the lines it
// prints after it listens; the process is stopped with SIGTERM at
// cleanup, and must exit cleanly.
func serve(t *testing.T, storeURL string, extra ...string) (string, <-chan string) {
	t.Helper()
	base, after, _ := serveLogged(t, storeURL, extra...)
	return base, after
}

// serveLogged is serve that also returns what the server logs (stderr).
func serveLogged(t *testing.T, storeURL string, extra ...string) (string, <-chan string, *syncbuf.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--store", storeURL, "--listen", "127.0.0.1:0"}, extra...)...)
	stdout, _ := cmd.StdoutPipe()
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines, after := make(chan string, 1), make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		listening := false
		for sc.Scan() {
			switch {
			case strings.HasPrefix(sc.Text(), "listening on "):
				lines <- strings.TrimPrefix(sc.Text(), "listening on ")
				listening = true
			case listening:
				select {
				case after <- sc.Text():
				default: // nobody reads that many
				}
			}
		}
	}()
	var base string
	select {
	case base = <-lines:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("serve did not start: %s", stderr.String())
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v: %s", err, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Error("serve did not shut down on SIGINT")
		}
	})
	return base, after, stderr
}

func rpc(t *testing.T, url, body string) (int, map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("response is not a JSON object: %s", raw)
	}
	return resp.StatusCode, m, string(raw)
}

func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	storeURL := "embedded:" + filepath.Join(dir, "data")

	if out := mustDasch(t, "migrate", "--store", storeURL); !strings.Contains(out, "schema at version") {
		t.Fatalf("migrate: %s", out)
	}
	out := mustDasch(t, "ingest", "--store", storeURL, "--source", "files:../../testdata/demo")
	if !strings.Contains(lastLine(out), "ingested") || !strings.Contains(lastLine(out), "indexed slot 270893658") {
		t.Errorf("ingest should end with its summary line: %s", out)
	}
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "demo"))
	if len(key) < 20 {
		t.Fatalf("key = %q", key)
	}
	sqlOut := mustDasch(t, "sql", "--store", storeURL, "SELECT count() AS n, max(slot) AS s FROM transactions FINAL WHERE signature = base58Decode('2J9pSeLvXnyawUPKdks98ZibQWU8v38AEhmZp9g9P3WzY9dJSMQ3RmoUaGN1zVCF3tTQy6q2YbD94jq8uzSZsay7')")
	if !strings.Contains(sqlOut, "1 │ 42") {
		t.Errorf("sql output:\n%s", sqlOut)
	}
	// Re-ingesting the same input changes no answer.
	mustDasch(t, "ingest", "--store", storeURL, "--source", "files:../../testdata/demo")
	again := mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", "SELECT count() FROM transactions FINAL")
	first := mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", "SELECT uniqExact(signature) FROM transactions")
	if lastLine(again) != lastLine(first) {
		t.Errorf("after re-ingest: %s rows vs %s signatures", lastLine(again), lastLine(first))
	}
	// A statement's own FORMAT clause: the engine's output as it is.
	if csv := mustDasch(t, "sql", "--store", storeURL, "SELECT count() AS n, 'a,b' AS s FROM transactions FINAL FORMAT CSVWithNames"); csv != "\"n\",\"s\"\n"+lastLine(again)+",\"a,b\"\n" {
		t.Errorf("sql with FORMAT CSVWithNames: %q", csv)
	}

	base, after := serve(t, storeURL)
	url := base + "/?api-key=" + key

	// The server listens first and loads its indexes after, each
	// reporting its load; the store answers until then. The asset index
	// is off by default.
	for _, want := range []string{"hot index: ", "token index: "} {
		select {
		case line := <-after:
			if !strings.HasPrefix(line, want) || !strings.Contains(line, " loaded in ") {
				t.Errorf("after listening: %q, want %q… loaded in …", line, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no %q line after listening", want)
		}
	}

	code, m, raw := rpc(t, url, `{"jsonrpc":"2.0","id":7,"method":"getIndexerSlot"}`)
	if code != 200 || string(m["result"].(json.Number)) != "270893658" || !strings.Contains(raw, `"id":7`) {
		t.Fatalf("getIndexerSlot: %d %s", code, raw)
	}

	tests := []struct {
		name   string
		url    string
		body   string
		code   int
		status int
		id     string // raw id expected in the response
	}{
		{"invalid JSON", url, `{"jsonrpc":"2.0","id":1,`, -32700, 200, "null"},
		{"no jsonrpc", url, `{"id":"a","method":"getIndexerSlot"}`, -32600, 200, `"a"`},
		{"jsonrpc 1.0", url, `{"jsonrpc":"1.0","id":3,"method":"getIndexerSlot"}`, -32600, 200, "3"},
		{"no method", url, `{"jsonrpc":"2.0","id":4}`, -32600, 200, "4"},
		{"unknown method", url, `{"jsonrpc":"2.0","id":5,"method":"getNothing"}`, -32601, 200, "5"},
		{"params wrong type", url, `{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot","params":"x"}`, -32602, 200, "6"},
		{"params number", url, `{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot","params":5}`, -32602, 200, "6"},
		{"no key", base + "/", `{"jsonrpc":"2.0","id":8,"method":"getIndexerSlot"}`, -32001, 401, "8"},
		{"wrong key", base + "/?api-key=wrong", `{"jsonrpc":"2.0","id":"k","method":"getIndexerSlot"}`, -32001, 401, `"k"`},
		{"big id", url, `{"jsonrpc":"2.0","id":18446744073709551615,"method":"nope"}`, -32601, 200, "18446744073709551615"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, m, raw := rpc(t, tc.url, tc.body)
			if status != tc.status {
				t.Errorf("HTTP %d, want %d: %s", status, tc.status, raw)
			}
			e, ok := m["error"].(map[string]any)
			if !ok {
				t.Fatalf("no error: %s", raw)
			}
			if got := string(e["code"].(json.Number)); got != fmt.Sprint(tc.code) {
				t.Errorf("code %s, want %d: %s", got, tc.code, raw)
			}
			if !strings.Contains(raw, `"id":`+tc.id) {
				t.Errorf("id not echoed as %s: %s", tc.id, raw)
			}
		})
	}

	resp, err := http.Get(base + "/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health: %v %v", resp, err)
	}
	resp.Body.Close()

	// While serve holds the directory, a second process gets a clear error.
	_, errOut, err := dasch(t, "sql", "--store", storeURL, "SELECT 1")
	if err == nil || !strings.Contains(errOut, "locked by another process") {
		t.Errorf("second process: %v %s", err, errOut)
	}
}

func TestCommandLine(t *testing.T) {
	out := mustDasch(t, "help")
	for _, c := range []string{"serve", "ingest", "migrate", "keys", "sql", "bench"} {
		if !strings.Contains(out, "  "+c+" ") {
			t.Errorf("help does not list %s:\n%s", c, out)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"keys"}, "expected a subcommand"},
		{[]string{"keys", "create", "--store", "embedded:" + t.TempDir()}, "--project is required"},
		{[]string{"sql", "--store", "embedded:" + t.TempDir()}, "expected one SQL statement"},
		{[]string{"sql", "--store", "embedded:" + t.TempDir(), "SELEC 1"}, "query failed"},
		{[]string{"migrate", "--store", "postgres://x"}, "unknown scheme"},
		{[]string{"ingest", "--store", "embedded:" + t.TempDir(), "--source", "kafka:x"}, "source"},
	}
	for _, tc := range tests {
		_, errOut, err := dasch(t, tc.args...)
		if err == nil || !strings.Contains(errOut, tc.want) {
			t.Errorf("dasch %v: err=%v stderr=%q, want %q", tc.args, err, errOut, tc.want)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 3 {
			t.Errorf("dasch %v: error should be short:\n%s", tc.args, errOut)
		}
	}
}
