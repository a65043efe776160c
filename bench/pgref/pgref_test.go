package pgref_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/internal/tempdir"
)

func TestStartStop(t *testing.T) {
	if _, err := pgref.FindBinDir(); errors.Is(err, pgref.ErrNotInstalled) {
		t.Skip(err)
	}
	ctx := context.Background()
	stale := staleDir(t)
	s, err := pgref.Start(ctx, pgref.Options{Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if !slices.Contains(s.Removed, stale) {
		t.Errorf("Start did not list %s, left by a killed run, as removed: %v", stale, s.Removed)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s, left by a killed run, is still there: %v", stale, err)
	}
	if !strings.Contains(s.DSN(), "@127.0.0.1:") {
		t.Fatalf("DSN %s is not loopback", s.DSN())
	}
	c, err := pgx.Connect(ctx, s.DSN())
	if err != nil {
		t.Fatal(err)
	}
	var fsync, listen string
	if err := c.QueryRow(ctx, "SELECT current_setting('fsync'), current_setting('listen_addresses')").Scan(&fsync, &listen); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	if fsync != "off" || listen != "127.0.0.1" {
		t.Fatalf("fsync=%s listen_addresses=%s", fsync, listen)
	}
	log := s.LogTail()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, s.DSN()); err == nil {
		t.Fatal("server still answers after Stop")
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	// The start's readiness probe may connect before the server takes
	// connections: that refusal is logged as FATAL and is not an error.
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "FATAL") && !strings.Contains(line, "the database system is starting up") {
			t.Fatalf("server log has errors: %s", log)
		}
	}
}

// staleDir makes a server directory as a run killed before its Stop
// would leave it: an owner file that no process holds locked.
func staleDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dasch-pgref-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, tempdir.OwnerFile), []byte("pid 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
