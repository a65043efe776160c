// Package checkpoint reads and writes the indexed slot: the main
// pipeline's checkpoint, up to which everything is committed. Ingest
// writes it; the API stamps its answers with it.
package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/internal/slotnote"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// ErrNotIndexed means no checkpoint exists yet, so no answer can carry a
// context slot.
var ErrNotIndexed = errors.New("no data has been indexed")

// ContextSlot reads the slot up to which everything is committed: the main
// pipeline's checkpoint. It tells "nothing yet" (ErrNotIndexed) apart from
// slot 0, which data indexed at slot 0 legitimately reports.
func ContextSlot(ctx context.Context, s store.Querier) (uint64, error) {
	slot, ok, err := slotOf(ctx, s, schema.CheckpointMain)
	if err != nil {
		return 0, fmt.Errorf("read indexed slot: %w", err)
	}
	if !ok {
		return 0, ErrNotIndexed
	}
	return slot, nil
}

// slotOf reads the checkpoint named name; ok is false when none was
// written.
func slotOf(ctx context.Context, s store.Querier, name string) (slot uint64, ok bool, err error) {
	res, err := s.Query(ctx, `SELECT max(slot), count() FROM indexer_checkpoints WHERE name = {n:String}`,
		store.Params{"n": name})
	if err != nil {
		return 0, false, err
	}
	if len(res.Rows) == 0 {
		return 0, false, nil
	}
	r := res.Row(0)
	slot, n := r.U64(0), r.U64(1)
	if err := r.Err(); err != nil {
		return 0, false, err
	}
	return slot, n > 0, nil
}

// IndexedSlot is ContextSlot with "nothing indexed" reported as slot 0.
func IndexedSlot(ctx context.Context, s store.Querier) (uint64, error) {
	slot, err := ContextSlot(ctx, s)
	if errors.Is(err, ErrNotIndexed) {
		return 0, nil
	}
	return slot, err
}

// SlotCache serves the indexed slot from memory, reading the store at most
// once per TTL. A cached value can only be older than the truth, never ahead
// of it, so answers stamped with it stay correct.
type SlotCache struct {
	s   store.Querier
	ttl time.Duration

	mu   sync.Mutex
	slot uint64
	at   time.Time
	// hits and misses count answers from memory and from the store.
	hits, misses atomic.Uint64
}

// Counts are the lookups answered from memory (hits) and from the store.
func (c *SlotCache) Counts() (hits, misses uint64) { return c.hits.Load(), c.misses.Load() }

// NewSlotCache returns a cache over s; ttl 0 means always read.
func NewSlotCache(s store.Querier, ttl time.Duration) *SlotCache {
	return &SlotCache{s: s, ttl: ttl}
}

// ContextSlot returns the cached slot, refreshing it when stale. "Not
// indexed" is not cached: the first checkpoint shows up at once. The
// slot is noted in ctx (slotnote) for the request log.
func (c *SlotCache) ContextSlot(ctx context.Context) (uint64, error) {
	slot, err := c.contextSlot(ctx)
	if err == nil {
		slotnote.Set(ctx, slot)
	}
	return slot, err
}

func (c *SlotCache) contextSlot(ctx context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl > 0 && !c.at.IsZero() && time.Since(c.at) < c.ttl {
		c.hits.Add(1)
		return c.slot, nil
	}
	c.misses.Add(1)
	slot, err := ContextSlot(ctx, c.s)
	if err != nil {
		return 0, err
	}
	c.slot, c.at = slot, time.Now()
	return slot, nil
}

// IndexedSlot implements api.SlotSource: 0 until something is indexed.
func (c *SlotCache) IndexedSlot(ctx context.Context) (uint64, error) {
	slot, err := c.ContextSlot(ctx)
	if errors.Is(err, ErrNotIndexed) {
		return 0, nil
	}
	return slot, err
}

// RunSlot reads the slot up to which the runs named run committed
// everything they read (WriteRun); ok is false when none did.
func RunSlot(ctx context.Context, s store.Querier, run string) (slot uint64, ok bool, err error) {
	if slot, ok, err = slotOf(ctx, s, RunPrefix+run); err != nil {
		return 0, false, fmt.Errorf("read checkpoint of %s: %w", run, err)
	}
	return slot, ok, nil
}
