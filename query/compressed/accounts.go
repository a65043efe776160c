package compressed

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

// unspentByHash reads the accounts of compressed_accounts (ordered by hash)
// selected by cond that compressed_spent (ordered by hash) does not list.
// Rows are immutable, so a duplicate left by re-ingestion is dropped with
// LIMIT 1 BY rather than a FINAL merge.
func unspentByHash(ctx context.Context, s store.Store, cond string, params store.Params) ([]Account, error) {
	sql := `SELECT ` + accountColumns + ` FROM compressed_accounts
		WHERE ` + cond + ` AND hash NOT IN (
			SELECT hash FROM compressed_spent WHERE hash IN (SELECT hash FROM compressed_accounts WHERE ` + cond + `))
		ORDER BY hash LIMIT 1 BY hash`
	res, err := s.Query(ctx, sql, params)
	if err != nil {
		return nil, err
	}
	return scanAccounts(res)
}

// AccountsByHashes returns the unspent accounts among hashes, in hash
// order; hashes that are unknown or spent are absent.
func AccountsByHashes(ctx context.Context, s store.Store, hashes []Key) ([]Account, error) {
	if len(hashes) == 0 {
		return nil, nil
	}
	out, err := unspentByHash(ctx, s, `hash IN `+keySet("keys"), store.Params{"keys": keysParam(hashes)})
	if err != nil {
		return nil, fmt.Errorf("accounts by hash: %w", err)
	}
	return out, nil
}

// AccountsByAddresses returns the unspent accounts holding any of
// addresses; the address bloom filter skips most of the table.
func AccountsByAddresses(ctx context.Context, s store.Store, addresses []Key) ([]Account, error) {
	if len(addresses) == 0 {
		return nil, nil
	}
	out, err := unspentByHash(ctx, s, `address IN `+keySet("keys"), store.Params{"keys": keysParam(addresses)})
	if err != nil {
		return nil, fmt.Errorf("accounts by address: %w", err)
	}
	return out, nil
}

// Memcmp keeps accounts whose data holds Bytes at Offset.
type Memcmp struct {
	Offset uint64
	Bytes  []byte
}

// OwnerPage selects one page of an owner's accounts.
type OwnerPage struct {
	After   *Key // hashes strictly after this one
	Limit   uint64
	Filters []Memcmp
	// AsOf, when set, hides accounts created after that slot: the read
	// paths receive outputs as they are stored, but their inputs' spends
	// only when the state step covers the slot, so an answer stamped with
	// the indexed slot must not show what lies beyond it.
	AsOf *uint64
}

// maxFilters bounds the placeholders a page may bind.
const maxFilters = 16

// AccountsByOwner lists owner's unspent accounts by hash from
// compressed_by_owner (ordered by owner, hash).
func AccountsByOwner(ctx context.Context, s store.Store, owner Key, p OwnerPage) ([]Account, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	if len(p.Filters) > maxFilters {
		return nil, fmt.Errorf("accounts by owner: %d filters, at most %d", len(p.Filters), maxFilters)
	}
	q := newQuery().where(`owner = {owner:FixedString(32)}`).bind("owner", keyParam(owner))
	if p.After != nil {
		q.where(`hash > {after:FixedString(32)}`).bind("after", keyParam(*p.After))
	}
	for i, f := range p.Filters {
		o, b := fmt.Sprintf("mo%d", i), fmt.Sprintf("mb%d", i)
		q.where(`substring(data, {`+o+`:UInt64} + 1, length({`+b+`:String})) = {`+b+`:String}`).
			bind(o, u64Param(f.Offset)).bind(b, string(f.Bytes))
	}
	if p.AsOf != nil {
		q.where(`slot_created <= {asof:UInt64}`).bind("asof", u64Param(*p.AsOf))
	}
	q.where(`NOT spent`).bind("limit", u64Param(p.Limit))
	res, err := s.Query(ctx, q.sql(`SELECT `+accountColumns+` FROM compressed_by_owner FINAL`,
		`ORDER BY hash LIMIT {limit:UInt64}`), q.params)
	if err != nil {
		return nil, fmt.Errorf("accounts by owner: %w", err)
	}
	return scanAccounts(res)
}
