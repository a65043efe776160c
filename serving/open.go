package serving

import (
	"context"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// DefaultSyncInterval matches the slot cache the other methods stamp
// answers with, so the index lags the store no more than they do.
const DefaultSyncInterval = 200 * time.Millisecond

// Open loads an index over s and keeps it in sync every interval until ctx
// ends; sync errors go to onErr (nil ignores them) and are retried. It is
// how `dasch serve` and the benchmark start the index, so both serve alike.
func Open(ctx context.Context, s store.Store, interval time.Duration, onErr func(error)) (*Index, time.Duration, error) {
	start := time.Now()
	x := New(s)
	if err := x.Load(ctx); err != nil {
		return nil, 0, err
	}
	took := time.Since(start)
	go x.Run(ctx, interval, onErr)
	return x, took, nil
}
