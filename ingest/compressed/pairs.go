package compressed

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// pairIndex follows the engine's in-memory index of stored balances
// (compressed_step_balances, migration 9), which the step fills and keeps
// up to date itself. The index is not persistent: an engine restart, or
// anything else that empties it, changes its key count, which the step
// checks before each use and answers with a reload.
type pairIndex struct {
	loaded bool
	// keys is the index's key count after the step's last write to it.
	keys uint64
	// stale counts the rows added for pairs the index already held: the
	// engine keeps them until the index is reloaded.
	stale uint64
}

// ready makes the index hold every stored balance, loading it when it is
// not loaded, was emptied, or carries more stale rows than keys. It tells
// whether the index can be used; when it cannot (the engine refused the
// load, e.g. for memory), the step finds old balances by scanning
// token_balances, as it did before the index.
func (st *StateStep) pairsReady(ctx context.Context, s store.Store) bool {
	p := &st.pairs
	if p.loaded {
		keys, _, err := pairCounts(ctx, s)
		if err != nil || keys != p.keys || p.stale > p.keys {
			p.loaded = false
		}
	}
	if p.loaded {
		return true
	}
	start := time.Now()
	if err := s.Exec(ctx, sqlPairsClear, nil); err != nil {
		return false
	}
	if err := s.Exec(ctx, sqlPairsLoad, nil); err != nil {
		return false
	}
	keys, _, err := pairCounts(ctx, s)
	if err != nil {
		return false
	}
	st.observed("balance pairs load", start)
	*p = pairIndex{loaded: true, keys: keys}
	return true
}

// pairsAdd adds the step's new balances, stored by then, to the index. A
// failure leaves the index to be reloaded by the next step.
func (st *StateStep) pairsAdd(ctx context.Context, s store.Store) {
	p := &st.pairs
	start := time.Now()
	p.loaded = false
	if err := s.Exec(ctx, sqlPairsAdd, nil); err != nil {
		return
	}
	keys, changes, err := pairCounts(ctx, s)
	if err != nil || keys < p.keys {
		return
	}
	p.stale += changes - min(changes, keys-p.keys)
	p.keys, p.loaded = keys, true
	st.observed("balance pairs add", start)
}

// pairCounts returns the index's key count and the step's change count.
func pairCounts(ctx context.Context, s store.Store) (keys, changes uint64, err error) {
	res, err := s.Query(ctx, sqlPairsCount, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("count balance pairs: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return 0, 0, fmt.Errorf("count balance pairs: unexpected result %v", res.Rows)
	}
	keys, _ = res.Rows[0][0].(uint64)
	changes, _ = res.Rows[0][1].(uint64)
	return keys, changes, nil
}
