package hotindex

import (
	"context"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// DefaultSyncInterval matches the slot cache the other methods stamp
// answers with, so the index lags the store no more than they do.
const DefaultSyncInterval = 200 * time.Millisecond

// Open loads an index over s within budget bytes and keeps it in sync
// every interval until ctx ends; sync errors go to onErr (nil ignores
// them) and are retried. The benchmark opens it so; `dasch serve` calls
// New, then Start once it listens: both load and sync alike.
func Open(ctx context.Context, s store.Querier, budget int64, interval time.Duration, onErr func(error)) (*Index, time.Duration, error) {
	x := New(s, budget)
	took, err := x.Start(ctx, interval, onErr)
	if err != nil {
		return nil, 0, err
	}
	return x, took, nil
}

// Start loads x and then keeps it in sync as Open does, returning the
// load's time. A server can hand x to its handlers first and Start it in
// the background: until the load finishes, x is not Ready and the store
// answers.
func (x *Index) Start(ctx context.Context, interval time.Duration, onErr func(error)) (time.Duration, error) {
	return start(ctx, x.Load, x.Run, interval, onErr)
}

// start is the Start of every index: load, then sync until ctx ends.
func start(ctx context.Context, load func(context.Context) error,
	run func(context.Context, time.Duration, func(error)), interval time.Duration, onErr func(error)) (time.Duration, error) {
	begin := time.Now()
	if err := load(ctx); err != nil {
		return 0, err
	}
	took := time.Since(begin)
	go run(ctx, interval, onErr)
	return took, nil
}

// syncEvery calls sync every interval until ctx ends; errors go to onErr
// (which may be nil) and the next tick retries. Every index runs so.
func syncEvery(ctx context.Context, interval time.Duration, sync func(context.Context) error, onErr func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := sync(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}

// keyChunk returns chunk c of n equal ranges of the key space, split by
// the first byte: [lo, hi), hi nil for the last. The indexes load so, one
// primary-key range read per chunk, no read returning a whole table.
func keyChunk[K ~[32]byte](c, n int) (lo K, hi *K) {
	lo[0] = byte(c * 256 / n)
	if c < n-1 {
		var h K
		h[0] = byte((c + 1) * 256 / n)
		hi = &h
	}
	return lo, hi
}
