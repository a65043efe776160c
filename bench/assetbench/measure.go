package assetbench

import (
	"context"

	"github.com/dasch-labs/dasch/bench/internal/measure"
)

// Series and Budget are the shared measurement types.
type (
	Series = measure.Series
	Budget = measure.Budget
)

// request is request i of a series; verify asks it to check the answer
// in full (the unmeasured first pass), not only that it succeeded.
type request func(ctx context.Context, i int, verify bool) error

// sequential runs fn one request at a time; the warmup requests are the
// verified first pass.
func sequential(ctx context.Context, b Budget, fn request) (Series, error) {
	return measure.Sequential(ctx, b, func(ctx context.Context, r measure.Req) error { return fn(ctx, r.Seq, r.Warm) })
}

// concurrent runs fn from clients goroutines; each worker warms up its own
// connection first with verified requests of its own.
func concurrent(ctx context.Context, clients int, b Budget, fn request) (Series, error) {
	return measure.Concurrent(ctx, clients, b, func(ctx context.Context, r measure.Req) error { return fn(ctx, r.Seq, r.Warm) })
}
