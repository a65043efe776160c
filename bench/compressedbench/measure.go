package compressedbench

import (
	"context"

	"github.com/dasch-labs/dasch/bench/internal/measure"
)

// Series and Budget are the shared measurement types.
type (
	Series = measure.Series
	Budget = measure.Budget
)

// sequential runs fn one request at a time.
func sequential(ctx context.Context, b Budget, fn func(ctx context.Context, i int) error) (Series, error) {
	return measure.Sequential(ctx, b, func(ctx context.Context, r measure.Req) error { return fn(ctx, r.Seq) })
}

// concurrent runs fn from clients goroutines; fn gets the worker number
// for per-worker state.
func concurrent(ctx context.Context, clients int, b Budget, fn func(ctx context.Context, worker, i int) error) (Series, error) {
	return measure.Concurrent(ctx, clients, b, func(ctx context.Context, r measure.Req) error { return fn(ctx, r.Worker, r.Index) })
}
