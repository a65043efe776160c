package compressedstate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// StateStep derives the compressed read tables for committed slot ranges:
// accounts by owner and by delegate, token accounts, the signature rows of
// spends, token balances and mint holders. Everything runs in SQL over
// what the Decoder wrote, but for the old balances, which come from the
// step's copy of them (balanceCache) when it holds one; applying a range
// again changes no answer.
// Apply calls must not overlap (the pipeline runs steps one at a time).
type StateStep struct {
	versions versions
	balances balanceCache
	// checked is set once no step is left unfinished; a failing Apply
	// clears it.
	checked bool
	// observe, when set, receives the time each write took (benchmarks).
	observe func(what string, took time.Duration)
	// session names the step's own staging tables (schema.SessionTable);
	// staged is set once they are made, made once they ever were.
	session      string
	staged, made bool
}

var _ ingest.StateStep = (*StateStep)(nil)

// NewStateStep returns the compressed state step.
func NewStateStep() *StateStep {
	return &StateStep{versions: versions{now: time.Now}, balances: balanceCache{limit: DefaultBalanceCache}, session: schema.NewSession()}
}

// BalanceCache sets the most (owner, mint) pairs the step keeps in memory
// to find old balances (DefaultBalanceCache); 0 makes it read them from
// token_balances every step.
func (st *StateStep) BalanceCache(pairs int) {
	st.balances = balanceCache{limit: pairs}
}

// Observe makes the step report the time each of its writes takes to f,
// which must be safe to call from two goroutines at once (a step runs
// some writes side by side).
func (st *StateStep) Observe(f func(what string, took time.Duration)) { st.observe = f }

// exec runs one write, timed when observed.
func (st *StateStep) exec(ctx context.Context, s arrowstore.Writer, w statement, params store.Params) error {
	start := time.Now()
	if err := s.Exec(ctx, w.sql, params); err != nil {
		return fmt.Errorf("write %s: %w", w.what, err)
	}
	st.observed(w.what, start)
	return nil
}

func (st *StateStep) observed(what string, start time.Time) {
	if st.observe != nil {
		st.observe(what, time.Since(start))
	}
}

// finishEarlier redoes the balance writes of a step that stored its
// markers and then failed, in this process or an earlier one, so no
// later step reads balances missing its events. It looks once per
// process, and again after a failure.
func (st *StateStep) finishEarlier(ctx context.Context, s arrowstore.Writer) (err error) {
	if st.checked {
		return nil
	}
	res, err := s.Query(ctx, sqlUnfinished, nil)
	if err != nil {
		return fmt.Errorf("find unfinished step: %w", err)
	}
	if v, _ := res.Rows[0][0].(uint64); v != 0 {
		if err := st.writeBalances(ctx, s, v, sqlRedoneDeltas, false); err != nil {
			return fmt.Errorf("redo step %d: %w", v, err)
		}
	}
	st.checked = true
	return nil
}

// Name implements ingest.StateStep.
func (*StateStep) Name() string { return "compressed" }

// statement is one write of the step, named for errors.
type statement struct {
	what, sql string
}

// accountWrites rewrite the read paths' rows of spent accounts; the
// unspent ones come from the views.
func accountWrites() []statement {
	return []statement{
		{"compressed_by_owner", sqlByOwner},
		{"token_accounts", sqlTokenAccounts},
		{"token_accounts_by_delegate", sqlByDelegate},
		{"owner_signatures of spends", sqlSpendOwnerSigs},
		{"token_owner_signatures of spends", sqlSpendTokenOwnerSigs},
	}
}

// spentWrites lists the range's spent accounts once, resolves them once
// and lists the spends that resolved to no indexed account as pending.
// It tells whether any resolved: then rewriteSpent is to run.
func (st *StateStep) spentWrites(ctx context.Context, s arrowstore.Writer, params store.Params) (bool, error) {
	for _, w := range []statement{
		{"clear spent", sqlClearSpent}, {"clear spent accounts", sqlClearSpentAccounts}, {"spent accounts", sqlSpentTouched},
	} {
		if err := st.exec(ctx, s, w, params); err != nil {
			return false, err
		}
	}
	res, err := s.Query(ctx, sqlSpentCount, nil)
	if err != nil {
		return false, fmt.Errorf("count spent accounts: %w", err)
	}
	spent, _ := res.Rows[0][0].(uint64)
	if spent == 0 {
		return false, nil
	}
	if err := st.exec(ctx, s, statement{"resolve spent accounts", sqlSpentResolve}, params); err != nil {
		return false, err
	}
	if res, err = s.Query(ctx, sqlResolvedCount, nil); err != nil {
		return false, fmt.Errorf("count resolved spent accounts: %w", err)
	}
	resolved, _ := res.Rows[0][0].(uint64)
	// Almost every step resolves all its spends: no pending list to write.
	if resolved < spent {
		if err := st.exec(ctx, s, statement{"pending spends", sqlPendingAdd}, params); err != nil {
			return false, err
		}
	}
	return resolved > 0, nil
}

// rewriteSpent marks the pending spends the range resolved and rewrites
// the read-path rows of its resolved spent accounts. Every write is
// idempotent, and none is read by the balance writes: the two run side
// by side, and a range failing in either is applied again whole.
func (st *StateStep) rewriteSpent(ctx context.Context, s arrowstore.Writer, params store.Params) error {
	for _, w := range append([]statement{{"pending spends resolved", sqlPendingResolved}}, accountWrites()...) {
		if err := st.exec(ctx, s, w, params); err != nil {
			return err
		}
	}
	return nil
}

// eventWrites list the events the balances do not count yet; spends
// only when the range spent anything. writeBalances marks them.
func eventWrites(spends bool) []statement {
	out := []statement{{"clear events", sqlClearEvents}, {"output events", sqlOutputEvents}}
	if spends {
		out = append(out, statement{"spend events", sqlSpendEvents})
	}
	return out
}

// writeBalances turns the counted events into balance changes, moves
// holders beside balances and records the version as finished. A fresh
// step (not a redo) first marks its listed events as counted, beside the
// deltas and the lookup of old balances, which may come from the step's
// copy (balanceCache), which then takes the new ones.
//
// Statements that do not depend on each other run two at a time: an
// insert from a select keeps about one core busy (docs/performance.md),
// and the steps fall behind the inserts (each covers several
// chunks, and the last runs after them), so they run on two.
// The markers are stored before any balance write, so a step failing
// after them is redone from them. Holders and balances may be written in
// either order: a redo finds the old balances below its version
// (sqlChanges), so rewrites both the same way.
func (st *StateStep) writeBalances(ctx context.Context, s arrowstore.Writer, version uint64, deltas string, fresh bool) error {
	params := store.Params{"version": strconv.FormatUint(version, 10)}
	cached := false
	err := together(func() error {
		if !fresh {
			return nil
		}
		return st.exec(ctx, s, statement{"ledger markers", sqlMark}, params)
	}, func() (err error) {
		cached, err = st.listChanges(ctx, s, deltas, fresh, params)
		return err
	})
	if err != nil {
		return err
	}
	if err := together(func() error {
		return st.exec(ctx, s, statement{"mint_holders", sqlHolders}, params)
	}, func() error {
		return st.exec(ctx, s, statement{"token_balances", sqlBalances}, params)
	}); err != nil {
		return err
	}
	if err := st.exec(ctx, s, statement{"finished", sqlFinished}, params); err != nil {
		return err
	}
	if cached {
		st.balances.commit(version)
	}
	return nil
}

// listChanges sums the deltas and lists the balance changes. A fresh step
// takes the old balances from the step's copy when it may (cached), and
// moves the copy to the balances its writes will leave (balanceCache.apply).
func (st *StateStep) listChanges(ctx context.Context, s arrowstore.Writer, deltas string, fresh bool, params store.Params) (cached bool, err error) {
	for _, w := range []statement{{"clear deltas", sqlClearDeltas}, {"deltas", deltas}, {"clear balance changes", sqlClearChanges}} {
		if err := st.exec(ctx, s, w, params); err != nil {
			return false, err
		}
	}
	changes := sqlChanges
	if fresh {
		start := time.Now()
		if cached, err = st.balances.prepare(ctx, s); err != nil {
			return false, err
		}
		st.observed("balance cache", start)
	}
	if cached {
		start := time.Now()
		if err = st.balances.apply(ctx, s); err != nil {
			return false, err
		}
		st.observed("stored balances", start)
		changes = sqlChangesCached
	}
	return cached, st.exec(ctx, s, statement{"balance changes", changes}, params)
}

// together runs f and g at once and returns their errors.
func together(f, g func() error) error {
	done := make(chan error, 1)
	go func() { done <- g() }()
	err := f()
	return errors.Join(err, <-done)
}

// Apply implements ingest.StateStep.
func (st *StateStep) Apply(ctx context.Context, s arrowstore.Writer, from, to uint64) (err error) {
	defer func() {
		if err != nil {
			st.checked = false
			st.staged = false
			st.balances.drop()
		}
	}()
	if from > to {
		return fmt.Errorf("empty slot range %d..%d", from, to)
	}
	if s, err = st.stage(ctx, s); err != nil {
		return err
	}
	// Forester transactions change trees without touching accounts, so the
	// tree nodes come first, before the early return below.
	start := time.Now()
	if err := applyTreeNodes(ctx, s, from, to); err != nil {
		return fmt.Errorf("tree nodes: %w", err)
	}
	st.observed("tree nodes", start)
	params := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	start = time.Now()
	res, err := s.Query(ctx, sqlTouchedAny, params)
	if err != nil {
		return fmt.Errorf("find touched accounts: %w", err)
	}
	st.observed("find touched", start)
	if n, _ := res.Rows[0][0].(uint64); n == 0 {
		return nil
	}
	if err := st.finishEarlier(ctx, s); err != nil {
		return err
	}
	spent, err := st.spentWrites(ctx, s, params)
	if err != nil {
		return err
	}
	v, err := st.versions.next(ctx, s)
	if err != nil {
		return err
	}
	params["version"] = strconv.FormatUint(v, 10)
	// A live slot is a few hundred rows: its step is about 25 short
	// statements, mostly the engine's floor per statement, so two chains
	// of them at once shorten a live slot's step, most with the balance
	// copy (4M-account bench, docs/performance.md).
	return together(func() error {
		if !spent {
			return nil
		}
		return st.rewriteSpent(ctx, s, params)
	}, func() error {
		for _, w := range eventWrites(spent) {
			if err := st.exec(ctx, s, w, params); err != nil {
				return err
			}
		}
		return st.writeBalances(ctx, s, v, sqlDeltas, true)
	})
}
