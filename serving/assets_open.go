package serving

import (
	"context"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// DefaultAssetBudget bounds the asset index: about a million assets of
// the usual kinds. Keys past it are read from the store.
const DefaultAssetBudget int64 = 4 << 30

// OpenAssets loads an asset index over s within budget bytes and keeps it
// in sync every interval until ctx ends; sync errors go to onErr (nil
// ignores them) and are retried. `dasch serve` and the benchmark start the
// index this way, so both serve alike.
func OpenAssets(ctx context.Context, s store.Store, budget int64, interval time.Duration, onErr func(error)) (*Assets, time.Duration, error) {
	start := time.Now()
	x := NewAssets(s, budget)
	if err := x.Load(ctx); err != nil {
		return nil, 0, err
	}
	took := time.Since(start)
	go x.Run(ctx, interval, onErr)
	return x, took, nil
}
