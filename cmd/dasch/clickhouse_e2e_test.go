package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chtest"
	"github.com/dasch-labs/dasch/internal/syncbuf"
)

// clickhouse starts `dasch clickhouse` on dir and waits until it is ready;
// stop ends it with SIGTERM and reports how it exited.
func clickhouse(t *testing.T, dir, users string, tcp, http int) (stop func() error, log *syncbuf.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, "clickhouse", "--data", dir, "--users", users,
		"--tcp-port", fmt.Sprint(tcp), "--http-port", fmt.Sprint(http))
	log = &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	// A test binary that dies (a timeout) takes the server with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	for !strings.Contains(log.String(), "clickhouse server ready") {
		select {
		case err := <-done:
			t.Fatalf("dasch clickhouse exited (%v): %s", err, log.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("dasch clickhouse not ready: %s", log.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			return fmt.Errorf("no exit within 30s of SIGTERM")
		}
	}
	t.Cleanup(func() { stop() })
	return stop, log
}

// TestClickHouseServer runs dasch on `dasch clickhouse` as an operator
// would: migrate, ingest and serve through the server engine, a read-only
// user that cannot write, a clean stop and the data still there after a
// restart.
func TestClickHouseServer(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "ch")
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("# test users\nw write s3cret pass\nro readonly r0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ports, err := chtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	stop, log := clickhouse(t, data, users, ports[0], ports[1])
	storeURL := fmt.Sprintf("clickhouse://w:%s@127.0.0.1:%d/default", "s3cret%20pass", ports[0])
	roURL := fmt.Sprintf("clickhouse://ro:r0@127.0.0.1:%d/default", ports[0])

	if out := mustDasch(t, "migrate", "--store", storeURL); !strings.Contains(out, "schema at version") {
		t.Fatalf("migrate: %s", out)
	}
	out := mustDasch(t, "ingest", "--store", storeURL, "--source", "files:../../testdata/demo")
	if !strings.Contains(lastLine(out), "indexed slot 270893658") {
		t.Errorf("ingest summary: %s", out)
	}
	count := lastLine(mustDasch(t, "sql", "--store", roURL, "--format", "tsv", "SELECT count() FROM transactions FINAL"))
	if count == "0" || count == "" {
		t.Fatalf("read-only count of transactions = %q", count)
	}
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "demo"))
	base, _ := serve(t, storeURL)
	code, m, raw := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	if code != 200 || string(m["result"].(json.Number)) != "270893658" {
		t.Fatalf("getIndexerSlot through the server engine: %d %s", code, raw)
	}

	for _, tc := range []struct {
		name, store, sql, want string
	}{
		{"read-only insert", roURL, "INSERT INTO blocks (slot) VALUES (1)", "Not enough privileges"},
		{"read-only drop", roURL, "DROP TABLE blocks", "Not enough privileges"},
		{"read-only keys", roURL, "SELECT count() FROM api_keys", "Not enough privileges"},
		{"wrong password", fmt.Sprintf("clickhouse://w:nope@127.0.0.1:%d/default", ports[0]), "SELECT 1", "Authentication failed"},
		{"engine user", fmt.Sprintf("clickhouse://default:@127.0.0.1:%d/default", ports[0]), "SELECT count() FROM transactions", "Not enough privileges"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, err := dasch(t, "sql", "--store", tc.store, tc.sql)
			if err == nil || !strings.Contains(errOut, tc.want) {
				t.Errorf("%s: err %v, stderr %s; want %q", tc.sql, err, errOut, tc.want)
			}
		})
	}

	// One process per data directory.
	other, _ := chtest.FreePorts(2)
	_, errOut, err := dasch(t, "clickhouse", "--data", data, "--users", users,
		"--tcp-port", fmt.Sprint(other[0]), "--http-port", fmt.Sprint(other[1]))
	if err == nil || !strings.Contains(errOut, "locked by another process") {
		t.Errorf("second server on the directory: %v %s", err, errOut)
	}
	// A port in use is named before the engine starts.
	_, errOut, err = dasch(t, "clickhouse", "--data", filepath.Join(dir, "ch2"), "--users", users,
		"--tcp-port", fmt.Sprint(ports[0]), "--http-port", fmt.Sprint(other[1]))
	if err == nil || !strings.Contains(errOut, "port in use") {
		t.Errorf("server on a taken port: %v %s", err, errOut)
	}

	if err := stop(); err != nil {
		t.Fatalf("stop on SIGTERM: %v: %s", err, log.String())
	}
	if !strings.Contains(log.String(), "clickhouse server stopped") {
		t.Errorf("no stop logged: %s", log.String())
	}
	clickhouse(t, data, users, ports[0], ports[1])
	if again := lastLine(mustDasch(t, "sql", "--store", roURL, "--format", "tsv", "SELECT count() FROM transactions FINAL")); again != count {
		t.Errorf("after a restart: %s transactions, want %s", again, count)
	}
}

func TestClickHouseUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"tls half", []string{"--tls-cert", "x.pem"}, "--tls-cert and --tls-key go together"},
		{"cluster without shards", []string{"--cluster", "c"}, "--cluster and --shard go together"},
		{"bad listen", []string{"--listen", "localhost"}, "not an IP address"},
		{"same ports", []string{"--tcp-port", "9000", "--http-port", "9000"}, "both 9000"},
		{"open beyond loopback without password", []string{"--listen", "0.0.0.0"}, "has no password"},
		{"bad shard", []string{"--cluster", "c", "--shard", "nohost"}, "want host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, err := dasch(t, append([]string{"clickhouse", "--data", t.TempDir()}, tc.args...)...)
			if err == nil || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "usage: dasch clickhouse") {
				t.Errorf("err %v, stderr %s; want %q and the usage", err, errOut, tc.want)
			}
		})
	}
	if out := mustDasch(t, "help", "clickhouse"); !strings.Contains(out, "NAME PROFILE PASSWORD") {
		t.Errorf("help clickhouse: %s", out)
	}
}
