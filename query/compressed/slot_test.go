package compressed_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
)

func TestContextSlot(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	cache := compressed.NewSlotCache(s, time.Hour)
	if _, err := cache.ContextSlot(ctx); !errors.Is(err, compressed.ErrNotIndexed) {
		t.Fatalf("empty store: %v, want ErrNotIndexed", err)
	}
	exec(t, s, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('other', 9)", nil)
	if _, err := compressed.ContextSlot(ctx, s); !errors.Is(err, compressed.ErrNotIndexed) {
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
	if got, err := compressed.NewSlotCache(s, 0).ContextSlot(ctx); err != nil || got != 18446744073709551615 {
		t.Errorf("uncached: %d %v", got, err)
	}
}
