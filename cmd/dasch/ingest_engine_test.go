package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chtest"
	"github.com/dasch-labs/dasch/store/chserver"
)

// TestEngineMemoryOfServer: an ingest into a server bounds its parts by
// the server's own memory limit, which it reads from the server.
func TestEngineMemoryOfServer(t *testing.T) {
	srv, err := chtest.StartProcess(chtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := chserver.Open(ctx, srv.DSN(""), chserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := &env{log: slog.New(slog.DiscardHandler), engineMemory: 1}
	n := engineMemory(ctx, e, s)
	if n < 64<<20 {
		t.Fatalf("server memory limit %d bytes, want the server's (not this process's share)", n)
	}
	mb := 1 << 16
	p := &ingestPlan{f: &ingestFlags{partMB: &mb}}
	if got := p.partBytes(n); int64(got) != n/8 {
		t.Errorf("part bound %d, want an eighth of %d", got, n)
	}
}
