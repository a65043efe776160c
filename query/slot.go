// Package query reads indexed state from the store for the API.
package query

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// IndexedSlot reads the slot up to which everything is committed, 0 if
// nothing has been indexed.
func IndexedSlot(ctx context.Context, s store.Store) (uint64, error) {
	res, err := s.Query(ctx, `SELECT max(slot) FROM indexer_checkpoints WHERE name = {n:String}`,
		store.Params{"n": schema.CheckpointMain})
	if err != nil {
		return 0, fmt.Errorf("read indexed slot: %w", err)
	}
	if len(res.Rows) == 0 {
		return 0, nil
	}
	return res.Rows[0][0].(uint64), nil
}

// SlotCache serves the indexed slot from memory, reading the store at most
// once per TTL. A cached value can only be older than the truth, never ahead
// of it, so answers stamped with it stay correct.
type SlotCache struct {
	s   store.Store
	ttl time.Duration

	mu   sync.Mutex
	slot uint64
	at   time.Time
}

// NewSlotCache returns a cache over s; ttl 0 means always read.
func NewSlotCache(s store.Store, ttl time.Duration) *SlotCache {
	return &SlotCache{s: s, ttl: ttl}
}

// IndexedSlot implements api.SlotSource.
func (c *SlotCache) IndexedSlot(ctx context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl > 0 && !c.at.IsZero() && time.Since(c.at) < c.ttl {
		return c.slot, nil
	}
	slot, err := IndexedSlot(ctx, c.s)
	if err != nil {
		return 0, err
	}
	c.slot, c.at = slot, time.Now()
	return slot, nil
}

// Ready reports whether the store answers; the health endpoint uses it.
func Ready(ctx context.Context, s store.Store) error {
	if _, err := s.Query(ctx, "SELECT 1", nil); err != nil {
		return fmt.Errorf("store not ready: %w", err)
	}
	return nil
}
