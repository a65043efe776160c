package main_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dasch-labs/dasch/internal/chtest"
	"github.com/dasch-labs/dasch/internal/syncbuf"
)

const analystPassword = "r3ad only"

// TestServeSQLListen serves an embedded store to the API and, read-only,
// to ClickHouse clients: serve ingests the demo fixtures through its own
// login while an analyst reads the same tables over the native protocol
// and HTTP, is refused every write and the keys table, and is stopped by
// the limits.
func TestServeSQLListen(t *testing.T) {
	dir := t.TempDir()
	storeURL := "embedded:" + filepath.Join(dir, "data")
	mustDasch(t, "migrate", "--store", storeURL)
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "demo"))
	ports, err := chtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DASCH_SQL_PASSWORD", analystPassword)
	native := fmt.Sprintf("127.0.0.1:%d", ports[0])
	base, _, log := serveLogged(t, storeURL, "--ingest", "files:../../testdata/demo",
		"--sql-listen", native, "--sql-http-listen", fmt.Sprintf("127.0.0.1:%d", ports[1]),
		"--sql-max-result-rows", "50", "--sql-max-execution-time", "1", "--sql-max-memory-mb", "64")

	conn := analyst(t, native, analystPassword)
	// clickhouse-go sends a context's deadline as max_execution_time,
	// which the analyst may not raise past the limit: no deadline here.
	ctx := context.Background()
	// The ingest writes through serve's login; the analyst sees its rows.
	var n uint64
	for deadline := time.Now().Add(time.Minute); ; {
		if err := conn.QueryRow(ctx, "SELECT count() FROM transactions FINAL").Scan(&n); err != nil {
			t.Fatalf("analyst count: %v", err)
		}
		if n == 61 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n != 61 {
		t.Fatalf("analyst reads %d transactions, want the demo's 61: %s", n, log.String())
	}
	rows, err := conn.Query(ctx, "SELECT base58Encode(signature), slot FROM transactions FINAL ORDER BY slot, signature LIMIT 3")
	if err != nil {
		t.Fatal(err)
	}
	var got int
	for rows.Next() {
		var sig string
		var slot uint64
		if err := rows.Scan(&sig, &slot); err != nil {
			t.Fatal(err)
		}
		if sig == "" || slot == 0 {
			t.Errorf("row %d: signature %q slot %d", got, sig, slot)
		}
		got++
	}
	if rows.Close(); got != 3 {
		t.Errorf("%d rows, want 3", got)
	}
	// The API answers through the same server.
	for range 100 {
		_, m, _ := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
		if fmt.Sprint(m["result"]) == "270893658" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, m, raw := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`); fmt.Sprint(m["result"]) != "270893658" {
		t.Errorf("getIndexerSlot: %s", raw)
	}

	for _, tc := range []struct {
		name, sql, want string
	}{
		{"insert", "INSERT INTO blocks (slot) VALUES (1)", "code: 497"},
		{"drop", "DROP TABLE blocks", "code: 497"},
		{"alter", "ALTER TABLE blocks DELETE WHERE 1", "code: 497"},
		{"create", "CREATE TABLE x (a UInt8) ENGINE = Memory", "code: 497"},
		{"keys", "SELECT count() FROM api_keys", "grant SELECT for at least one column on default.api_keys"},
		{"keys by name", "SELECT * FROM default.api_keys", "grant SELECT ON default.api_keys"},
		{"keys through merge", "SELECT * FROM merge('default', '^api_keys$')", "no tables"},
		{"running statements", "SELECT query FROM system.processes", "grant SELECT ON system.processes"},
		{"a file", "SELECT * FROM file('/etc/passwd', 'LineAsString')", "grant READ ON FILE"},
		{"result rows", "SELECT signature FROM transactions", "Limit for result exceeded, max rows: 50"},
		{"execution time", "SELECT sleepEachRow(0.3) FROM numbers(10) SETTINGS max_block_size = 1", "Timeout exceeded"},
		{"memory", "SELECT length(groupArray(repeat('x', 1000))) FROM numbers(1000000)", "memory limit exceeded"},
		{"lifted limit", "SELECT 1 SETTINGS max_result_rows = 0", "shouldn't be less than 1"},
		{"raised limit", "SELECT 1 SETTINGS max_execution_time = 3600", "shouldn't be greater than 1"},
		{"readonly setting", "SELECT 1 SETTINGS readonly = 0", "Cannot modify 'readonly'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := conn.Exec(ctx, tc.sql)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.sql, err, tc.want)
			}
		})
	}

	t.Run("wrong password", func(t *testing.T) {
		c, err := ch.Open(&ch.Options{Addr: []string{native}, Auth: ch.Auth{Database: "default", Username: "analyst", Password: "nope"}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Ping(ctx); err == nil || !strings.Contains(err.Error(), "Authentication failed") {
			t.Errorf("wrong password: %v", err)
		}
	})
	t.Run("http", func(t *testing.T) {
		for _, tc := range []struct {
			name, user, pass, sql string
			code                  int
			want                  string
		}{
			{"count", "analyst", analystPassword, "SELECT count() FROM blocks FINAL", 200, "1\n"},
			{"keys", "analyst", analystPassword, "SELECT * FROM api_keys", 500, "ACCESS_DENIED"},
			{"insert", "analyst", analystPassword, "INSERT INTO blocks (slot) VALUES (2)", 500, "ACCESS_DENIED"},
			{"wrong password", "analyst", "nope", "SELECT 1", 403, "AUTHENTICATION_FAILED"},
			{"serve's login", "dasch_serve", "", "SELECT 1", 403, "AUTHENTICATION_FAILED"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/", ports[1]), strings.NewReader(tc.sql))
				req.SetBasicAuth(tc.user, tc.pass)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.want) {
					t.Errorf("%s: %d %s, want %d %q", tc.sql, resp.StatusCode, body, tc.code, tc.want)
				}
			})
		}
	})
}

func analyst(t *testing.T, addr, password string) ch.Conn {
	t.Helper()
	c, err := ch.Open(&ch.Options{
		Addr:        []string{addr},
		Auth:        ch.Auth{Database: "default", Username: "analyst", Password: password},
		Compression: &ch.Compression{Method: ch.CompressionLZ4},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestServeSQLListenUsage: the flags are checked before anything starts.
func TestServeSQLListenUsage(t *testing.T) {
	for _, tc := range []struct {
		name, password string
		args           []string
		want           string
	}{
		{"server store", "p", []string{"--store", "clickhouse://u:p@127.0.0.1:9/default", "--sql-listen", "127.0.0.1:9000"}, "serves an embedded:DIR store"},
		{"no password", "", []string{"--sql-listen", "127.0.0.1:9000"}, "DASCH_SQL_PASSWORD"},
		{"not host:port", "p", []string{"--sql-listen", "9000"}, "want HOST:PORT"},
		{"name", "p", []string{"--sql-listen", "localhost:9000"}, "not an IP address"},
		{"two hosts", "p", []string{"--sql-listen", "127.0.0.1:9000", "--sql-http-listen", "0.0.0.0:8123"}, "the host of --sql-listen"},
		{"same port", "p", []string{"--sql-listen", "127.0.0.1:9000", "--sql-http-listen", "127.0.0.1:9000"}, "both 9000"},
		{"limit", "p", []string{"--sql-listen", "127.0.0.1:9000", "--sql-max-result-rows", "0"}, "must be positive"},
		{"without listen", "p", []string{"--sql-user", "x"}, "--sql-user applies with --sql-listen only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DASCH_SQL_PASSWORD", tc.password)
			args := append([]string{"serve", "--store", "embedded:" + filepath.Join(t.TempDir(), "d")}, tc.args...)
			_, errOut, err := dasch(t, args...)
			if err == nil || !strings.Contains(errOut, tc.want) {
				t.Errorf("%v: %v %s, want %q", tc.args, err, errOut, tc.want)
			}
		})
	}
}

// TestServeSQLListenChildDies: serve stops, with an error, when the SQL
// server it reads through ends under it.
func TestServeSQLListenChildDies(t *testing.T) {
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	mustDasch(t, "migrate", "--store", storeURL)
	ports, err := chtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DASCH_SQL_PASSWORD", analystPassword)
	cmd := exec.Command(bin, "serve", "--store", storeURL, "--listen", "127.0.0.1:0",
		"--sql-listen", fmt.Sprintf("127.0.0.1:%d", ports[0]), "--sql-http-listen", fmt.Sprintf("127.0.0.1:%d", ports[1]))
	log := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(log.String(), "listening on"); {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Any thread of serve may have started the child.
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", cmd.Process.Pid))
	if err != nil || len(tasks) == 0 {
		t.Skipf("no /proc children lists: %v", err)
	}
	var pids []string
	for _, f := range tasks {
		raw, _ := os.ReadFile(f)
		pids = append(pids, strings.Fields(string(raw))...)
	}
	if len(pids) != 1 {
		t.Fatalf("serve has children %v, want the SQL server alone", pids)
	}
	child, _ := strconv.Atoi(pids[0])
	if err := syscall.Kill(child, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(log.String(), "sql server stopped") {
			t.Errorf("serve exited with %v after its SQL server died: %s", err, log.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve still running after its SQL server died: %s", log.String())
	}
}
