package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyStore: serve and sql open a store read-only beside each
// other; a writer is kept out, and writes are refused.
func TestReadOnlyStore(t *testing.T) {
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	mustDasch(t, "ingest", "--store", storeURL, "--source", "files:../../testdata/demo")
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "demo"))

	base, _, logs := serveLogged(t, storeURL, "--read-only")
	code, m, raw := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	if code != 200 || string(m["result"].(json.Number)) != "270893658" {
		t.Fatalf("getIndexerSlot on a read-only store: %d %s", code, raw)
	}
	if !strings.Contains(logs.String(), "request log off") {
		t.Errorf("request log not turned off: %s", logs.String())
	}
	if n := lastLine(mustDasch(t, "sql", "--read-only", "--store", storeURL, "--format", "tsv",
		"SELECT count() FROM transactions FINAL")); n != "61" {
		t.Errorf("read-only sql beside a read-only serve: %q transactions", n)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"write through sql", []string{"sql", "--read-only", "--store", storeURL, "INSERT INTO blocks (slot) VALUES (1)"}, "readonly mode"},
		{"a writer beside readers", []string{"sql", "--store", storeURL, "SELECT 1"}, "locked by another process"},
		{"ingest beside readers", []string{"ingest", "--store", storeURL, "--source", "files:../../testdata/demo"}, "locked by another process"},
		{"read-only ingesting serve", []string{"serve", "--read-only", "--store", storeURL, "--ingest", "files:../../testdata/demo"}, "--read-only and --ingest"},
		{"read-only server store", []string{"sql", "--read-only", "--store", "clickhouse://u:p@127.0.0.1:1/default", "SELECT 1"}, "readonly user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, err := dasch(t, tc.args...)
			if err == nil || !strings.Contains(errOut, tc.want) {
				t.Errorf("err %v, stderr %s; want %q", err, errOut, tc.want)
			}
		})
	}
}
