package compressed

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/store"
)

// unspentByHash reads the accounts of compressed_accounts (ordered by hash)
// selected by cond that compressed_spent (ordered by hash) does not list;
// spentCond selects, in compressed_spent, the spends those accounts may
// have (a superset will do). Rows are immutable, so a duplicate left by
// re-ingestion is dropped with LIMIT 1 BY rather than a FINAL merge.
func unspentByHash(ctx context.Context, s store.Querier, cond, spentCond string, params store.Params) ([]Account, error) {
	sql := `SELECT ` + accountColumns + ` FROM compressed_accounts
		WHERE ` + cond + ` AND hash NOT IN (SELECT hash FROM compressed_spent WHERE ` + spentCond + `)
		ORDER BY hash LIMIT 1 BY hash`
	res, err := s.Query(ctx, sql, params)
	if err != nil {
		return nil, err
	}
	return scanAccounts(res)
}

// AccountsByHashes returns the unspent accounts among hashes, in hash
// order; hashes that are unknown or spent are absent.
func AccountsByHashes(ctx context.Context, s store.Querier, hashes []Key) ([]Account, error) {
	return AccountsByHashesAt(ctx, s, hashes, nil)
}

// AccountsByHashesAt is AccountsByHashes as of slot asOf, when set: an
// account created later is absent, one spent later is unspent. Rows
// committed past the checkpoint an answer is stamped with stay hidden
// (docs/compat.md).
func AccountsByHashesAt(ctx context.Context, s store.Querier, hashes []Key, asOf *uint64) ([]Account, error) {
	if len(hashes) == 0 {
		return nil, nil
	}
	// The spends are looked up by the hashes themselves: finding which of
	// them are stored first read compressed_accounts a second time, which
	// was slower (the kept 20M-account bench store, docs/performance.md).
	keys := `hash IN ` + keySet("keys")
	params := store.Params{"keys": keysParam(hashes)}
	spentCond := keys
	if asOf != nil {
		spentCond += ` AND slot <= {asof:UInt64}`
		params["asof"] = u64Param(*asOf)
	}
	out, err := unspentByHash(ctx, s, keys, spentCond, params)
	if err != nil {
		return nil, fmt.Errorf("accounts by hash: %w", err)
	}
	return createdBy(out, asOf), nil
}

// createdBy keeps, in place, the accounts created by slot asOf, when set:
// each row carries its slot, so the bound costs the query nothing.
func createdBy(accounts []Account, asOf *uint64) []Account {
	if asOf == nil {
		return accounts
	}
	return slices.DeleteFunc(accounts, func(a Account) bool { return a.SlotCreated > *asOf })
}

// AccountsByAddresses returns the unspent accounts holding any of
// addresses; the address bloom filter skips most of the table. The
// accounts are read first and their spends then looked up by hash: in
// one statement (unspentByHash) the spends' subquery scanned the bloom
// filter a second time, more than doubling an unknown address's lookup
// (the kept 20M-account bench store, docs/performance.md).
func AccountsByAddresses(ctx context.Context, s store.Querier, addresses []Key) ([]Account, error) {
	return AccountsByAddressesAt(ctx, s, addresses, nil)
}

// AccountsByAddressesAt is AccountsByAddresses as of slot asOf, when set,
// as AccountsByHashesAt is.
func AccountsByAddressesAt(ctx context.Context, s store.Querier, addresses []Key, asOf *uint64) ([]Account, error) {
	if len(addresses) == 0 {
		return nil, nil
	}
	res, err := s.Query(ctx, `SELECT `+accountColumns+` FROM compressed_accounts
		WHERE address IN `+keySet("keys")+` ORDER BY hash LIMIT 1 BY hash`,
		store.Params{"keys": keysParam(addresses)})
	if err != nil {
		return nil, fmt.Errorf("accounts by address: %w", err)
	}
	found, err := scanAccounts(res)
	if err != nil {
		return nil, err
	}
	found = createdBy(found, asOf)
	out, err := dropSpent(ctx, s, found, asOf)
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
	// afterLeaf is the leaf index of After's account, when it is one of
	// the owner's: the page then continues after it in page order.
	afterLeaf *uint64
}

// cursorLeaf looks up the leaf index of owner's account after, by key.
func cursorLeaf(ctx context.Context, s store.Querier, owner, after Key) (uint64, bool, error) {
	res, err := s.Query(ctx, `SELECT leaf_index FROM compressed_accounts
		WHERE hash = {after:FixedString(32)} AND owner = {owner:FixedString(32)} LIMIT 1`,
		store.Params{"after": keyParam(after), "owner": keyParam(owner)})
	if err != nil {
		return 0, false, fmt.Errorf("cursor account: %w", err)
	}
	if len(res.Rows) == 0 {
		return 0, false, nil
	}
	r := res.Row(0)
	leaf := r.U64(0)
	if err := r.Err(); err != nil {
		return 0, false, fmt.Errorf("cursor account: %w", err)
	}
	return leaf, true, nil
}

// maxFilters bounds the placeholders a page may bind.
const maxFilters = 16

// AccountsByOwner lists owner's unspent accounts in Photon's order, by
// leaf index then hash (several trees interleave). The cursor is, as
// Photon's, the last hash of the page before; the page continues after
// that account in this order (Photon keeps the hashes greater than the
// cursor instead, which skips accounts where the two orders differ:
// docs/compat.md). A cursor naming no account of owner pages as Photon's.
// Accounts are read from compressed_by_owner, except the token accounts,
// whose owner is always the compressed-token program: they are read from
// compressed_accounts (see tokenProgramAccounts) and merged with that
// program's other accounts.
func AccountsByOwner(ctx context.Context, s store.Querier, owner Key, p OwnerPage) ([]Account, error) {
	if p.Limit == 0 {
		return nil, nil
	}
	if len(p.Filters) > maxFilters {
		return nil, fmt.Errorf("accounts by owner: %d filters, at most %d", len(p.Filters), maxFilters)
	}
	if p.After != nil && p.afterLeaf == nil {
		leaf, found, err := cursorLeaf(ctx, s, owner, *p.After)
		if err != nil {
			return nil, fmt.Errorf("accounts by owner: %w", err)
		}
		if found {
			p.afterLeaf = &leaf
		}
	}
	q := ownerQuery(owner, p, false).where(`NOT spent`).bind("limit", u64Param(p.Limit))
	res, err := s.Query(ctx, q.sql(`SELECT `+accountColumns+` FROM compressed_by_owner FINAL`,
		`ORDER BY leaf_index, hash LIMIT {limit:UInt64}`), q.params)
	if err != nil {
		return nil, fmt.Errorf("accounts by owner: %w", err)
	}
	out, err := scanAccounts(res)
	if err != nil || owner != tokenProgram {
		return out, err
	}
	tokens, err := tokenProgramAccounts(ctx, s, owner, p)
	if err != nil {
		return nil, fmt.Errorf("accounts by owner: %w", err)
	}
	return mergeByLeaf(out, tokens, p.Limit), nil
}

// tokenProgram owns every compressed token account.
var tokenProgram = Key(light.CompressedTokenProgram())

// maxMemcmpOffset is past the end of any account's data (it fits in a
// transaction); larger offsets are cut to it, so that offset + 1 cannot
// wrap to 0, where substring fails, and the filter matches nothing, as
// any offset past the data does.
const maxMemcmpOffset = 1 << 32

// tokenData is a token account's data as served: stored when its token
// columns do not encode back to it, else rebuilt from them as
// light.AppendTokenData does, so that memcmp filters see the bytes the
// answer carries (a filter on the stored column matched no canonical
// token account, whose data is not stored).
const tokenData = `ifNull(data, concat(mint, token_owner, reinterpretAsFixedString(amount),
	if(delegate IS NULL, '\0', concat('\x01', assumeNotNull(delegate))), reinterpretAsFixedString(token_state),
	if(tlv IS NULL, '\0', concat('\x01', assumeNotNull(tlv)))))`

// tokenField is the narrowest expression of a token account's data that
// holds the n bytes at off, with off relative to it: the mint and owner
// columns for the first 64 bytes (stored data starts with them too, as
// they were decoded from it), else the whole data. A filter on the mint
// or the owner then reads one column instead of rebuilding every row's
// data.
func tokenField(off, n uint64) (string, uint64) {
	switch {
	case off+n <= 32:
		return `mint`, off
	case off >= 32 && off+n <= 64:
		return `token_owner`, off - 32
	}
	return tokenData, off
}

// ownerQuery selects an owner page's rows: owner, cursor, memcmp filters
// (on token accounts' data as served when token is set) and the answer's
// slot.
func ownerQuery(owner Key, p OwnerPage, token bool) *query {
	q := newQuery().where(`owner = {owner:FixedString(32)}`).bind("owner", keyParam(owner))
	switch {
	case p.After != nil && p.afterLeaf != nil:
		q.where(`(leaf_index, hash) > ({afterleaf:UInt64}, {after:FixedString(32)})`).
			bind("afterleaf", u64Param(*p.afterLeaf)).bind("after", keyParam(*p.After))
	case p.After != nil:
		q.where(`hash > {after:FixedString(32)}`).bind("after", keyParam(*p.After))
	}
	for i, f := range p.Filters {
		o, b := fmt.Sprintf("mo%d", i), fmt.Sprintf("mb%d", i)
		data, off := `data`, min(f.Offset, maxMemcmpOffset)
		if token {
			data, off = tokenField(off, uint64(len(f.Bytes)))
		}
		q.where(`substring(`+data+`, {`+o+`:UInt64} + 1, length({`+b+`:String})) = {`+b+`:String}`).
			bind(o, u64Param(off)).bind(b, string(f.Bytes))
	}
	if p.AsOf != nil {
		q.where(`slot_created <= {asof:UInt64}`).bind("asof", u64Param(*p.AsOf))
	}
	return q
}

// tokenProgramAccounts lists, by leaf index then hash, at most p.Limit
// unspent token accounts from compressed_accounts. Candidates are read in
// that order a window at a time, each window after the last one's
// position, and their spends looked up by key in compressed_spent, until
// the page is full or the table ends: no set of every spent hash is
// built, and a window is a bounded top-N of the engine. The window
// doubles after each full one, so a long run of spent accounts costs few
// round trips.
//
// An account stored twice (re-ingested, not merged yet) comes back as two
// adjacent rows and is kept once here: a LIMIT 1 BY hash in the query kept
// the engine from stopping its ordered read early, which made each window
// several times slower (docs/performance.md).
//
// A filter naming one token owner (its 32 bytes at offset 32) reads the
// candidates from token_accounts instead, ordered by token owner: only
// that owner's rows, where compressed_accounts is scanned until the page
// fills. That is several times faster on first calls and on a large
// owner's repeats; a small owner's repeated scan is as fast, answered by
// the engine's condition cache (the kept 20M-account bench store,
// docs/performance.md).
func tokenProgramAccounts(ctx context.Context, s store.Querier, owner Key, p OwnerPage) ([]Account, error) {
	const maxWindow = 1 << 16
	table := "compressed_accounts"
	tokenOwner, pinned := pinnedTokenOwner(p.Filters)
	if pinned {
		table = "token_accounts"
	}
	var out []Account
	var pos *Account // the last candidate read
	for window := min(max(2*p.Limit, 64), 4096); uint64(len(out)) < p.Limit; window = min(2*window, maxWindow) {
		q := ownerQuery(owner, p, true).where(`is_token`).bind("limit", u64Param(window))
		if pinned {
			q.where(`token_owner = {towner:FixedString(32)}`).bind("towner", keyParam(tokenOwner))
		}
		if pos != nil {
			q.where(`(leaf_index, hash) > ({pli:UInt64}, {phash:FixedString(32)})`).
				bind("pli", u64Param(pos.LeafIndex)).bind("phash", keyParam(pos.Hash))
		}
		res, err := s.Query(ctx, q.sql(`SELECT `+accountColumns+` FROM `+table,
			`ORDER BY leaf_index, hash LIMIT {limit:UInt64}`), q.params)
		if err != nil {
			return nil, fmt.Errorf("token accounts by leaf index: %w", err)
		}
		rows, err := scanAccounts(res)
		if err != nil || len(rows) == 0 {
			return out, err
		}
		cand := uniqueByHash(rows)
		last := cand[len(cand)-1]
		kept, err := dropSpent(ctx, s, cand, p.AsOf)
		if err != nil {
			return nil, err
		}
		out = append(out, kept...)
		if uint64(len(rows)) < window {
			break
		}
		pos = &last
	}
	if uint64(len(out)) > p.Limit {
		out = out[:p.Limit]
	}
	return out, nil
}

// pinnedTokenOwner is the token owner a filter names whole, if one does:
// a token account's data holds its owner at bytes 32-63.
func pinnedTokenOwner(filters []Memcmp) (Key, bool) {
	for _, f := range filters {
		if f.Offset == 32 && len(f.Bytes) == 32 {
			return Key(f.Bytes), true
		}
	}
	return Key{}, false
}

// uniqueByHash drops the repeats of each hash from rows ordered by hash
// (or by leaf index then hash: an account stored twice has one leaf
// index), in place.
func uniqueByHash(rows []Account) []Account {
	out := rows[:0]
	for _, a := range rows {
		if len(out) == 0 || a.Hash != out[len(out)-1].Hash {
			out = append(out, a)
		}
	}
	return out
}

// dropSpent keeps, in place, the accounts not spent (up to slot asOf,
// when set).
func dropSpent(ctx context.Context, s store.Querier, accounts []Account, asOf *uint64) ([]Account, error) {
	if len(accounts) == 0 {
		return accounts, nil
	}
	spent, err := spentAmong(ctx, s, accounts, asOf)
	if err != nil {
		return nil, err
	}
	out := accounts[:0]
	for _, a := range accounts {
		if _, ok := spent[a.Hash]; !ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// spentAmong returns which of accounts were spent (up to slot asOf, when
// set), looked up by key in compressed_spent.
func spentAmong(ctx context.Context, s store.Querier, accounts []Account, asOf *uint64) (map[Key]struct{}, error) {
	hashes := make([]Key, len(accounts))
	for i, a := range accounts {
		hashes[i] = a.Hash
	}
	q := newQuery().where(`hash IN `+keySet("keys")).bind("keys", keysParam(hashes))
	if asOf != nil {
		q.where(`slot <= {asof:UInt64}`).bind("asof", u64Param(*asOf))
	}
	res, err := s.Query(ctx, q.sql(`SELECT DISTINCT hash FROM compressed_spent`, ``), q.params)
	if err != nil {
		return nil, fmt.Errorf("spent accounts: %w", err)
	}
	spent := make(map[Key]struct{}, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		k := r.Key(0)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("spent accounts: %w", err)
		}
		spent[k] = struct{}{}
	}
	return spent, nil
}

// byLeaf orders accounts as Photon lists an owner's: leaf index, then hash.
func byLeaf(a, b *Account) int {
	if c := cmp.Compare(a.LeafIndex, b.LeafIndex); c != 0 {
		return c
	}
	return bytes.Compare(a.Hash[:], b.Hash[:])
}

// mergeByLeaf merges two lists ordered by leaf index then hash into one,
// at most limit long.
func mergeByLeaf(a, b []Account, limit uint64) []Account {
	out := make([]Account, 0, min(uint64(len(a)+len(b)), limit))
	for uint64(len(out)) < limit && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || (len(a) > 0 && byLeaf(&a[0], &b[0]) < 0) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}
