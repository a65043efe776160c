package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

// TokenRow is one row of token_accounts as stored, for a reader that keeps
// its own copy (the serving index): Data.Data is nil unless DataStored,
// in which case the token columns do not rebuild it (see scanAccount).
type TokenRow struct {
	Account
	DataStored bool
	// Spent marks the row that records the account's spend at SpentSlot.
	Spent     bool
	SpentSlot uint64
}

const tokenRowColumns = accountColumns + `, spent, spent_slot`

// UnspentTokenRows reads the token accounts unspent as of slot asOf whose
// owner is in [lo, hi) (hi nil: no upper bound).
func UnspentTokenRows(ctx context.Context, s store.Querier, lo Key, hi *Key, asOf uint64) ([]TokenRow, error) {
	q := newQuery().where(`token_owner >= {lo:FixedString(32)}`).bind("lo", keyParam(lo))
	if hi != nil {
		q.where(`token_owner < {hi:FixedString(32)}`).bind("hi", keyParam(*hi))
	}
	// After FINAL the spent row replaces the unspent one; a spend after
	// asOf leaves the account unspent as of then.
	q.where(`slot_created <= {asof:UInt64} AND (NOT spent OR spent_slot > {asof:UInt64})`).bind("asof", u64Param(asOf))
	rows, err := readTokenRows(ctx, s, "unspent token rows", q.sql(`SELECT `+tokenRowColumns+` FROM token_accounts FINAL`, ``), q.params)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].Spent = false // spent after asOf
	}
	return rows, nil
}

// TokenRowsChanged reads the token_accounts rows that became true in the
// slots [from, to]: outputs created then and spends recorded then (a
// spend indexed before its output counts at the output's slot, when its
// spent row is written). Every returned spent row is spent as of to; an
// account also spent later shows only its unspent row. The sync_mm skip
// index (migration 11) keeps this from scanning the table.
func TokenRowsChanged(ctx context.Context, s store.Querier, from, to uint64) ([]TokenRow, error) {
	return readTokenRows(ctx, s, "changed token rows", sqlTokenRowsChanged, store.Params{"from": u64Param(from), "to": u64Param(to)})
}

// sqlTokenRowsChanged is written as the sync_mm index's expression so the
// index applies.
const sqlTokenRowsChanged = `SELECT ` + tokenRowColumns + ` FROM token_accounts
WHERE greatest(slot_created, spent_slot) >= {from:UInt64} AND greatest(slot_created, spent_slot) <= {to:UInt64}`

// readTokenRows runs sql, which selects tokenRowColumns, and scans its
// rows; what names the read in errors.
func readTokenRows(ctx context.Context, s store.Querier, what, sql string, params store.Params) ([]TokenRow, error) {
	if rq, ok := s.(store.RawQuerier); ok {
		rows, err := readTokenRowsRaw(ctx, rq, sql, params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		return rows, nil
	}
	res, err := s.Query(ctx, sql, params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	rows, err := scanTokenRows(res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return rows, nil
}

func scanTokenRows(res *store.Result) ([]TokenRow, error) {
	out := make([]TokenRow, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		if r.Len() != 23 {
			return nil, fmt.Errorf("token row has %d columns, want 23", r.Len())
		}
		a, stored, err := scanStored(&r)
		if err != nil {
			return nil, err
		}
		spent, spentSlot := r.Bool(21), r.U64(22)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("token row: %w", err)
		}
		out[i] = TokenRow{Account: a, DataStored: stored, Spent: spent, SpentSlot: spentSlot}
	}
	return out, nil
}
