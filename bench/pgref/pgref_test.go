package pgref_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/bench/pgref"
)

func TestStartStop(t *testing.T) {
	if _, err := pgref.FindBinDir(); errors.Is(err, pgref.ErrNotInstalled) {
		t.Skip(err)
	}
	ctx := context.Background()
	s, err := pgref.Start(ctx, pgref.Options{Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
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
	if strings.Contains(log, "FATAL") {
		t.Fatalf("server log has errors: %s", log)
	}
}
