package hotindex

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
// ignores them) and are retried. `dasch serve` calls NewAssets, then Start
// once it listens: the same load and sync.
func OpenAssets(ctx context.Context, s store.Querier, budget int64, interval time.Duration, onErr func(error)) (*Assets, time.Duration, error) {
	x := NewAssets(s, budget)
	took, err := x.Start(ctx, interval, onErr)
	if err != nil {
		return nil, 0, err
	}
	return x, took, nil
}

// Start loads x and keeps it in sync as OpenAssets does, returning the
// load's time. Until the load finishes, x reports no slot and knows no
// key, so the store answers and a server can Start it in the background.
func (x *Assets) Start(ctx context.Context, interval time.Duration, onErr func(error)) (time.Duration, error) {
	return start(ctx, x.Load, x.Run, interval, onErr)
}
