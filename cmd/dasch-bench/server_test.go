package main_test

import (
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/chtest"
)

// TestCompressedServer runs the compressed suite on the server engine,
// against a ClickHouse server from the embedded engine, then refuses the
// database it filled.
func TestCompressedServer(t *testing.T) {
	srv := chtest.Start(t, chtest.Options{})
	dsn := srv.DSN("")
	out, errOut, err := run(t, bin, "--suite", "compressed", "--quick", "--accounts", "2000", "--postgres=false", "--store", dsn)
	if err != nil {
		t.Fatalf("compressed suite on the server engine: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "every measured path returned identical pages") || !strings.Contains(out, "ingest, token accounts/s") {
		t.Errorf("report:\n%s", out)
	}
	if strings.Contains(out+errOut, srv.Password) {
		t.Errorf("the password is in the output")
	}
	_, errOut, err = run(t, bin, "--suite", "compressed", "--quick", "--postgres=false", "--store", dsn)
	if err == nil || !strings.Contains(errOut, "into an empty database") || strings.Contains(errOut, srv.Password) {
		t.Errorf("second run on the filled database: %v\n%s", err, errOut)
	}
}
