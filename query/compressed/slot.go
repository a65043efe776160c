package compressed

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// ErrNotIndexed means no slot has been indexed yet, so no answer can carry
// a context slot.
var ErrNotIndexed = errors.New("no data has been indexed")

// ContextSlot is the slot every answer is stamped with: the main pipeline's
// checkpoint. Unlike query.IndexedSlot it tells "nothing yet" (ErrNotIndexed)
// apart from slot 0, which fixtures indexed at slot 0 legitimately report.
func ContextSlot(ctx context.Context, s store.Store) (uint64, error) {
	res, err := s.Query(ctx, `SELECT max(slot), count() FROM indexer_checkpoints WHERE name = {n:String}`,
		store.Params{"n": schema.CheckpointMain})
	if err != nil {
		return 0, fmt.Errorf("read context slot: %w", err)
	}
	if len(res.Rows) == 0 || res.Rows[0][1].(uint64) == 0 {
		return 0, ErrNotIndexed
	}
	return res.Rows[0][0].(uint64), nil
}

// SlotCache serves ContextSlot from memory, reading the store at most once
// per TTL. A cached slot can only lag the truth, never lead it.
type SlotCache struct {
	s   store.Store
	ttl time.Duration

	mu   sync.Mutex
	slot uint64
	at   time.Time
}

// NewSlotCache returns a cache over s; ttl 0 reads the store every time.
func NewSlotCache(s store.Store, ttl time.Duration) *SlotCache {
	return &SlotCache{s: s, ttl: ttl}
}

// ContextSlot returns the cached slot, refreshing it when stale. "Not
// indexed" is not cached: the first checkpoint shows up at once.
func (c *SlotCache) ContextSlot(ctx context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl > 0 && !c.at.IsZero() && time.Since(c.at) < c.ttl {
		return c.slot, nil
	}
	slot, err := ContextSlot(ctx, c.s)
	if err != nil {
		return 0, err
	}
	c.slot, c.at = slot, time.Now()
	return slot, nil
}
