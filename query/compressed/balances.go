package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

// TokenBalance is an owner's balance of one mint.
type TokenBalance struct {
	Mint    Key
	Balance uint64
}

// BalancePage selects one page of an owner's token balances.
type BalancePage struct {
	Mint      *Key // only this mint
	AfterMint *Key // mints strictly after this one
	Limit     uint64
	// WithZero keeps (owner, mint) rows whose balance fell to 0.
	WithZero bool
}

// TokenBalancesByOwner lists owner's balances by mint from token_balances
// (ordered by owner, mint).
func TokenBalancesByOwner(ctx context.Context, s store.Querier, owner Key, p BalancePage) ([]TokenBalance, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	q := newQuery().where(`owner = {owner:FixedString(32)}`).bind("owner", keyParam(owner))
	if p.Mint != nil {
		q.where(`mint = {mint:FixedString(32)}`).bind("mint", keyParam(*p.Mint))
	}
	if p.AfterMint != nil {
		q.where(`mint > {after:FixedString(32)}`).bind("after", keyParam(*p.AfterMint))
	}
	if !p.WithZero {
		q.where(`balance > 0`)
	}
	q.bind("limit", u64Param(p.Limit))
	res, err := s.Query(ctx, q.sql(`SELECT mint, balance FROM token_balances FINAL`,
		`ORDER BY mint LIMIT {limit:UInt64}`), q.params)
	if err != nil {
		return nil, fmt.Errorf("token balances by owner: %w", err)
	}
	out := make([]TokenBalance, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		var b TokenBalance
		if b.Balance, err = keyAmount(&r, &b.Mint); err != nil {
			return nil, fmt.Errorf("token balances by owner: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// Holder is one owner's balance of a mint.
type Holder struct {
	Owner   Key
	Balance uint64
}

// HolderPage selects one page of a mint's holders.
type HolderPage struct {
	After    *HolderCursor // rows strictly after this (balance, owner), descending
	Limit    uint64
	WithZero bool // keep owners whose balance fell to 0
}

// MintHolders lists the holders of mint by balance, then owner, both
// descending, from mint_holders (ordered by mint, balance, owner): a page is
// a range read of that key, whatever the number of holders.
//
// FINAL cannot stop early on a descending page: it merged every row of the
// mint first, so a large mint's first page cost in proportion to its
// holders (docs/performance.md). So the page is read in two steps. The key
// range the page can lie in ends at the n-th live-flagged row after the
// cursor, read without FINAL, newest key first, stopping after n rows;
// FINAL then reads that range only. Every holder's newest row
// is live-flagged, so every holder before that row is in the range; a
// range holding fewer than a page of holders (stale rows, not yet merged
// away, took the room) is read again twice as wide.
func MintHolders(ctx context.Context, s store.Querier, mint Key, p HolderPage) ([]Holder, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	for n := p.Limit + p.Limit/8 + 16; ; n *= 2 {
		end, err := holdersRangeEnd(ctx, s, mint, p, n)
		if err != nil {
			return nil, err
		}
		q := holdersQuery(mint, p)
		if end != nil {
			q.where(`(balance > {eb:UInt64} OR (balance = {eb:UInt64} AND owner >= {eo:FixedString(32)}))`).
				bind("eb", u64Param(end.Balance)).bind("eo", keyParam(end.Owner))
		}
		q.bind("limit", u64Param(p.Limit))
		res, err := s.Query(ctx, q.sql(`SELECT owner, balance FROM mint_holders FINAL`,
			`ORDER BY balance DESC, owner DESC LIMIT {limit:UInt64}`), q.params)
		if err != nil {
			return nil, fmt.Errorf("mint holders: %w", err)
		}
		if end != nil && uint64(len(res.Rows)) < p.Limit {
			continue
		}
		out := make([]Holder, 0, len(res.Rows))
		for i := range res.Rows {
			r := res.Row(i)
			var h Holder
			if h.Balance, err = keyAmount(&r, &h.Owner); err != nil {
				return nil, fmt.Errorf("mint holders: %w", err)
			}
			out = append(out, h)
		}
		return out, nil
	}
}

// holdersQuery holds the conditions of a holders page: the mint, the
// cursor, zero balances and tombstones.
func holdersQuery(mint Key, p HolderPage) *query {
	q := newQuery().where(`mint = {mint:FixedString(32)}`).bind("mint", keyParam(mint))
	if p.After != nil {
		q.where(`(balance < {ab:UInt64} OR (balance = {ab:UInt64} AND owner < {ao:FixedString(32)}))`).
			bind("ab", u64Param(p.After.Balance)).bind("ao", keyParam(p.After.Owner))
	}
	if !p.WithZero {
		q.where(`balance > 0`)
	}
	return q.where(`NOT is_deleted`)
}

// holdersRangeEnd returns the key of the n-th live-flagged row of the page's
// range, unmerged rows counted as they are, or nil when there are fewer.
func holdersRangeEnd(ctx context.Context, s store.Querier, mint Key, p HolderPage, n uint64) (*HolderCursor, error) {
	q := holdersQuery(mint, p).bind("skip", u64Param(n-1))
	res, err := s.Query(ctx, q.sql(`SELECT owner, balance FROM mint_holders`,
		`ORDER BY balance DESC, owner DESC LIMIT 1 OFFSET {skip:UInt64}`), q.params)
	if err != nil {
		return nil, fmt.Errorf("mint holders range: %w", err)
	}
	if len(res.Rows) == 0 {
		return nil, nil
	}
	var c HolderCursor
	r := res.Row(0)
	if c.Balance, err = keyAmount(&r, &c.Owner); err != nil {
		return nil, fmt.Errorf("mint holders range: %w", err)
	}
	return &c, nil
}

// OwnerLamports sums the lamports of owner's unspent compressed accounts
// created up to slot asOf. It reads one owner's range of
// compressed_by_owner; for the compressed-token program it adds its token
// accounts, which are not there (see AccountsByOwner). Token accounts
// rarely hold lamports, so that sum reads the lamports column of
// compressed_accounts first and looks up only the accounts holding some,
// and their spends by key, far cheaper than checking every token account
// against every spend (a 4M-account bench store, docs/performance.md).
// When most token accounts hold lamports it costs what that did.
func OwnerLamports(ctx context.Context, s store.Querier, owner Key, asOf uint64) (uint64, error) {
	params := store.Params{"owner": keyParam(owner), "asof": u64Param(asOf)}
	sum := func(sql string) (uint64, error) {
		res, err := s.Query(ctx, sql, params)
		if err != nil {
			return 0, fmt.Errorf("owner lamports: %w", err)
		}
		if len(res.Rows) == 0 {
			return 0, nil
		}
		r := res.Row(0)
		v := r.U64(0)
		if err := r.Err(); err != nil {
			return 0, fmt.Errorf("owner lamports: %w", err)
		}
		return v, nil
	}
	total, err := sum(`SELECT sum(lamports) FROM compressed_by_owner FINAL
		WHERE owner = {owner:FixedString(32)} AND NOT spent AND slot_created <= {asof:UInt64}`)
	if err != nil || owner != tokenProgram {
		return total, err
	}
	// Re-ingested copies of an account are identical: one per hash counts.
	tokens, err := sum(`WITH holding AS (
			SELECT hash, any(lamports) AS held FROM compressed_accounts
			PREWHERE lamports > 0
			WHERE owner = {owner:FixedString(32)} AND is_token AND slot_created <= {asof:UInt64}
			GROUP BY hash)
		SELECT toUInt64(sum(held)) FROM holding
		WHERE hash NOT IN (SELECT hash FROM compressed_spent
			WHERE hash IN (SELECT hash FROM holding) AND slot <= {asof:UInt64})`)
	return total + tokens, err
}
