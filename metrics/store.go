package metrics

import (
	"context"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// TimeQueries returns q timing every statement into r's store query
// latency; a q that is also a store.RawQuerier stays one.
func TimeQueries(q store.Querier, r *Registry) store.Querier {
	t := timed{q: q, r: r}
	if raw, ok := q.(store.RawQuerier); ok {
		return timedRaw{t, raw}
	}
	return t
}

type timed struct {
	q store.Querier
	r *Registry
}

func (t timed) Query(ctx context.Context, sql string, p store.Params) (*store.Result, error) {
	start := time.Now()
	res, err := t.q.Query(ctx, sql, p)
	t.r.StoreQuery("query", time.Since(start))
	return res, err
}

type timedRaw struct {
	timed
	raw store.RawQuerier
}

func (t timedRaw) QueryRaw(ctx context.Context, sql string, p store.Params, format string) ([]byte, error) {
	start := time.Now()
	out, err := t.raw.QueryRaw(ctx, sql, p, format)
	t.r.StoreQuery("raw", time.Since(start))
	return out, err
}
