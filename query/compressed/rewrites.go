package compressed

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Rewrites are the entries of the rewrite log (schema.TableRewrites) past
// a point (ReadIndexState): slot ranges an ingest derived again at or below the indexed
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

// IndexState is what a reader following the store by slot reads on each
// poll: the indexed slot (Indexed false before any checkpoint) and the
// rewrite log's entries past a point.
type IndexState struct {
	Slot     uint64
	Indexed  bool
	Rewrites Rewrites
}

// ReadIndexState reads the indexed slot, as ContextSlot does, and the
// rewrite log entries logged after after (microseconds; 0 reads them all),
// in one statement: the token index polls both every few hundred
// milliseconds, and each statement pays the engine's per-query floor.
func ReadIndexState(ctx context.Context, s store.Querier, after int64) (IndexState, error) {
	res, err := s.Query(ctx, `SELECT
		(SELECT max(slot) FROM indexer_checkpoints WHERE name = {n:String}),
		(SELECT count() FROM indexer_checkpoints WHERE name = {n:String}),
		max(toUnixTimestamp64Micro(at)), min(from_slot), max(to_slot), count()
		FROM indexer_rewrites WHERE toUnixTimestamp64Micro(at) > {after:Int64}`,
		store.Params{"n": schema.CheckpointMain, "after": strconv.FormatInt(after, 10)})
	if err != nil {
		return IndexState{}, fmt.Errorf("indexed slot and rewrite log: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 6 {
		return IndexState{}, fmt.Errorf("indexed slot and rewrite log: %d rows", len(res.Rows))
	}
	r := res.Row(0)
	slot, checkpoints := r.U64(0), r.U64(1)
	last, from, to, n := r.I64(2), r.U64(3), r.U64(4), r.U64(5)
	if err := r.Err(); err != nil {
		return IndexState{}, fmt.Errorf("indexed slot and rewrite log: %w", err)
	}
	st := IndexState{Slot: slot, Indexed: checkpoints > 0, Rewrites: Rewrites{Last: after}}
	if n > 0 {
		st.Rewrites = Rewrites{Last: last, From: from, To: to, Any: true}
	}
	return st, nil
}

// TokenRowsRewritten reads the token_accounts rows an ingest derived again
// for the slots [from, to], as of slot asOf: the outputs created in them,
// with their spent rows, and the spends recorded in them. Like
// TokenRowsChanged, a spend after asOf leaves only the unspent row. It
// reads the table's slot columns whole: rewrites are rare (backfills).
func TokenRowsRewritten(ctx context.Context, s store.Querier, from, to, asOf uint64) ([]TokenRow, error) {
	return readTokenRows(ctx, s, "rewritten token rows", `SELECT `+tokenRowColumns+` FROM token_accounts
		WHERE (slot_created BETWEEN {from:UInt64} AND {to:UInt64} OR spent AND spent_slot BETWEEN {from:UInt64} AND {to:UInt64})
			AND greatest(slot_created, spent_slot) <= {asof:UInt64}`,
		store.Params{"from": u64Param(from), "to": u64Param(to), "asof": u64Param(asOf)})
}
