package checkpoint_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func TestIndexedSlot(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	got, err := checkpoint.IndexedSlot(ctx, s)
	if err != nil || got != 0 {
		t.Fatalf("empty store: %d, %v", got, err)
	}
	// Checkpoints only move forward, whatever order they are written in.
	for _, slot := range []string{"100", "18446744073709551000", "5"} {
		if err := s.Exec(ctx, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', {s:UInt64})", store.Params{"s": slot}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Exec(ctx, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('other', 1)", nil); err != nil {
		t.Fatal(err)
	}
	got, err = checkpoint.IndexedSlot(ctx, s)
	if err != nil || got != 18446744073709551000 {
		t.Fatalf("got %d, %v", got, err)
	}
}

func TestSlotCache(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	c := checkpoint.NewSlotCache(s, time.Hour)
	if v, err := c.IndexedSlot(ctx); err != nil || v != 0 {
		t.Fatalf("%d %v", v, err)
	}
	if _, err := c.ContextSlot(ctx); !errors.Is(err, checkpoint.ErrNotIndexed) {
		t.Fatalf("empty store: err = %v, want ErrNotIndexed", err)
	}
	// "Nothing indexed" is not cached: the first checkpoint shows at once.
	if err := s.Exec(ctx, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 3)", nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.IndexedSlot(ctx); v != 3 {
		t.Fatalf("first checkpoint = %d, want 3", v)
	}
	if err := s.Exec(ctx, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 7)", nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.IndexedSlot(ctx); v != 3 {
		t.Fatalf("cached value should hold within the TTL, got %d", v)
	}
	if v, _ := checkpoint.NewSlotCache(s, 0).IndexedSlot(ctx); v != 7 {
		t.Fatalf("uncached = %d", v)
	}
}

func TestContextSlot(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	cache := checkpoint.NewSlotCache(s, time.Hour)
	if _, err := cache.ContextSlot(ctx); !errors.Is(err, checkpoint.ErrNotIndexed) {
		t.Fatalf("empty store: %v, want ErrNotIndexed", err)
	}
	exec(t, s, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('other', 9)", nil)
	if _, err := checkpoint.ContextSlot(ctx, s); !errors.Is(err, checkpoint.ErrNotIndexed) {
		t.Fatalf("other pipeline only: %v, want ErrNotIndexed", err)
	}
	exec(t, s, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 0)", nil)
	if got, err := cache.ContextSlot(ctx); err != nil || got != 0 {
		t.Fatalf("slot 0 indexed: %d %v", got, err)
	}
	exec(t, s, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 18446744073709551615)", nil)
	if got, _ := cache.ContextSlot(ctx); got != 0 {
		t.Errorf("cached slot should hold within the TTL, got %d", got)
	}
	if got, err := checkpoint.NewSlotCache(s, 0).ContextSlot(ctx); err != nil || got != 18446744073709551615 {
		t.Errorf("uncached: %d %v", got, err)
	}
}

func exec(t *testing.T, s store.Execer, sql string, p store.Params) {
	t.Helper()
	if err := s.Exec(context.Background(), sql, p); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
