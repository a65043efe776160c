package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

// TokenPage selects one page of token accounts.
type TokenPage struct {
	Mint  *Key         // only this mint
	After *TokenCursor // rows strictly after this (mint, hash)
	Limit uint64
	// AsOf, when set, hides accounts created after that slot (see
	// OwnerPage.AsOf).
	AsOf *uint64
}

// TokenAccountsByOwner lists the unspent token accounts of owner by mint,
// then hash, from token_accounts (ordered by owner, mint, hash).
func TokenAccountsByOwner(ctx context.Context, s store.Querier, owner Key, p TokenPage) ([]Account, error) {
	out, err := tokenAccounts(ctx, s, "token_accounts", "token_owner", owner, p)
	if err != nil {
		return nil, fmt.Errorf("token accounts by owner: %w", err)
	}
	return out, nil
}

// TokenAccountsByDelegate lists the unspent token accounts delegated to
// delegate, from token_accounts_by_delegate (ordered by delegate, mint, hash).
func TokenAccountsByDelegate(ctx context.Context, s store.Querier, delegate Key, p TokenPage) ([]Account, error) {
	out, err := tokenAccounts(ctx, s, "token_accounts_by_delegate", "delegate_key", delegate, p)
	if err != nil {
		return nil, fmt.Errorf("token accounts by delegate: %w", err)
	}
	return out, nil
}

// tokenAccounts reads one keyset page; table and column are constants of
// this package, never input.
func tokenAccounts(ctx context.Context, s store.Querier, table, column string, who Key, p TokenPage) ([]Account, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(column+` = {who:FixedString(32)}`).bind("who", keyParam(who))
	if p.Mint != nil {
		q.where(`mint = {mint:FixedString(32)}`).bind("mint", keyParam(*p.Mint))
	}
	if p.After != nil {
		q.where(`(mint > {am:FixedString(32)} OR (mint = {am:FixedString(32)} AND hash > {ah:FixedString(32)}))`).
			bind("am", keyParam(p.After.Mint)).bind("ah", keyParam(p.After.Hash))
	}
	if p.AsOf != nil {
		// After FINAL the spent row replaces the unspent one; a spend
		// after AsOf leaves the account unspent as of then.
		q.where(`slot_created <= {asof:UInt64} AND (NOT spent OR spent_slot > {asof:UInt64})`).bind("asof", u64Param(*p.AsOf))
	} else {
		q.where(`NOT spent`)
	}
	q.bind("limit", u64Param(p.Limit))
	res, err := s.Query(ctx, q.sql(`SELECT `+accountColumns+`, spent FROM `+table+` FINAL`,
		`ORDER BY mint, hash LIMIT {limit:UInt64}`), q.params)
	if err != nil {
		return nil, err
	}
	out, err := scanAccounts(res)
	if err != nil || p.AsOf == nil {
		return out, err
	}
	return unspentAsOf(ctx, s, res, out)
}

// unspentAsOf replaces, in place, the accounts of rows whose row is a
// spend (the last column, spent) with the accounts as created: a spent
// row carries the keys only (migration 22), and one spent after the page's
// AsOf is shown as it was then.
func unspentAsOf(ctx context.Context, s store.Querier, res *store.Result, out []Account) ([]Account, error) {
	var spent []Key
	at := map[Key]int{}
	for i := range res.Rows {
		r := res.Row(i)
		if r.Bool(r.Len() - 1) {
			spent = append(spent, out[i].Hash)
			at[out[i].Hash] = i
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
	}
	if len(spent) == 0 {
		return out, nil
	}
	full, err := s.Query(ctx, `SELECT `+accountColumns+` FROM compressed_accounts
		WHERE hash IN `+keySet("keys")+` ORDER BY hash LIMIT 1 BY hash`, store.Params{"keys": keysParam(spent)})
	if err != nil {
		return nil, fmt.Errorf("accounts spent later: %w", err)
	}
	created, err := scanAccounts(full)
	if err != nil {
		return nil, err
	}
	for _, a := range created {
		out[at[a.Hash]] = a
	}
	return out, nil
}
