package compressed

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/store"
)

// Rewrites are the entries of the rewrite log (schema.TableRewrites) past
// a point: slot ranges an ingest derived again at or below the indexed
// slot.
type Rewrites struct {
	// Last is the newest entry's time, in microseconds: pass it as after
	// to read only later entries.
	Last int64
	// From and To span every entry's slots.
	From, To uint64
	// Any is false when there is no entry past the point.
	Any bool
}

// ReadRewrites reads the rewrite log entries logged after after
// (microseconds; 0 reads them all).
func ReadRewrites(ctx context.Context, s store.Store, after int64) (Rewrites, error) {
	res, err := s.Query(ctx, `SELECT max(toUnixTimestamp64Micro(at)), min(from_slot), max(to_slot), count()
		FROM indexer_rewrites WHERE toUnixTimestamp64Micro(at) > {after:Int64}`,
		store.Params{"after": strconv.FormatInt(after, 10)})
	if err != nil {
		return Rewrites{}, fmt.Errorf("rewrite log: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 4 {
		return Rewrites{}, fmt.Errorf("rewrite log: %d rows", len(res.Rows))
	}
	r := res.Rows[0]
	last, ok1 := r[0].(int64)
	from, ok2 := r[1].(uint64)
	to, ok3 := r[2].(uint64)
	n, ok4 := r[3].(uint64)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return Rewrites{}, fmt.Errorf("rewrite log: unexpected types %T %T %T %T", r[0], r[1], r[2], r[3])
	}
	if n == 0 {
		return Rewrites{Last: after}, nil
	}
	return Rewrites{Last: last, From: from, To: to, Any: true}, nil
}

// TokenRowsRewritten reads the token_accounts rows an ingest derived again
// for the slots [from, to], as of slot asOf: the outputs created in them,
// with their spent rows, and the spends recorded in them. Like
// TokenRowsChanged, a spend after asOf leaves only the unspent row. It
// reads the table's slot columns whole: rewrites are rare (backfills).
func TokenRowsRewritten(ctx context.Context, s store.Store, from, to, asOf uint64) ([]TokenRow, error) {
	res, err := s.Query(ctx, `SELECT `+tokenRowColumns+` FROM token_accounts
		WHERE (slot_created BETWEEN {from:UInt64} AND {to:UInt64} OR spent AND spent_slot BETWEEN {from:UInt64} AND {to:UInt64})
			AND greatest(slot_created, spent_slot) <= {asof:UInt64}`,
		store.Params{"from": u64Param(from), "to": u64Param(to), "asof": u64Param(asOf)})
	if err != nil {
		return nil, fmt.Errorf("rewritten token rows: %w", err)
	}
	rows, err := scanTokenRows(res)
	if err != nil {
		return nil, fmt.Errorf("rewritten token rows: %w", err)
	}
	return rows, nil
}
