// Package assetlist finds the assets a listing or search method answers
// with, in order, one page at a time: by key (owner, creator, authority,
// group) from asset_keys, or by any searchAssets condition from
// asset_state's decoded columns. Each asset comes with its folded
// document, read in the same range.
package assetlist

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Sort orders of a listing.
const (
	SortID           = "id"
	SortCreated      = "created"
	SortUpdated      = "updated"
	SortRecentAction = "recent_action"
	SortNone         = "none"
)

// Sort is a listing's order: By one of the Sort constants, descending
// unless Asc. The id always breaks ties, in the same direction.
type Sort struct {
	By  string
	Asc bool
}

// Page selects one page: Limit rows, after skipping (Page-1)*Limit when
// Page is set; else only ids past After and before Before, or, in cursor
// mode, past Cursor in the sort direction.
type Page struct {
	Limit         int
	Page          int
	Before, After *solana.Pubkey
	Cursor        *solana.Pubkey
}

// Scope is a set of assets: the rows of a table matching a condition.
type Scope struct {
	from, where string
	params      store.Params
	// parts, when set, are disjoint scopes whose union this one is, each
	// read in order up to the page (sharing params), in place of from.
	parts []Scope
	// narrow reads the page's ids before their documents: a scope whose
	// condition may pass over many rows without documents in its range.
	narrow bool
}

// params names bound values p0, p1, ... so conditions built apart never
// collide.
type params struct{ p store.Params }

func (ps *params) add(typ, v string) string {
	if ps.p == nil {
		ps.p = store.Params{}
	}
	name := "p" + strconv.Itoa(len(ps.p))
	ps.p[name] = v
	return "{" + name + ":" + typ + "}"
}

func (ps *params) key(k solana.Pubkey) string { return ps.add("FixedString(32)", string(k[:])) }

// ByKey is the assets listed under key on path (schema.AssetPath*), only
// those listed as verified when onlyVerified.
func ByKey(path string, key solana.Pubkey, onlyVerified bool) Scope {
	var ps params
	where := "path = " + ps.add("String", path) + " AND key = " + ps.key(key)
	if onlyVerified {
		where += " AND verified"
	}
	return Scope{from: schema.TableAssetKeys + " FINAL", where: where, params: ps.p}
}

// ByOwnerWithFungibles is the assets owner owns and the fungible assets
// it holds through token accounts with a balance (any balance with
// zero). The two never meet: a fungible has no owner key.
func ByOwnerWithFungibles(owner solana.Pubkey, zero bool) Scope {
	var ps params
	o := ps.key(owner)
	held := heldMints(&ps, owner, zero, true)
	return Scope{params: ps.p, parts: []Scope{
		{from: schema.TableAssetKeys + " FINAL", where: "path = " + ps.add("String", schema.AssetPathOwner) + " AND key = " + o},
		{from: schema.TableAssetState + " FINAL", where: "status = '' AND supply > 0 AND interface IN " +
			list(&ps, fungibleInterfaces) + " AND id IN (" + held + ")", narrow: true},
	}}
}

// heldMints is a query of the mints owner holds through open token
// accounts (with a balance unless zero), leaving out those it owns when
// notOwned (an NFT's mint is held by its owner too, and the fewer ids
// asset_state is read by, the fewer of its granules): its accounts from
// asset_token_owners, kept where asset_token_accounts still has them as
// its own (an account that changed owner leaves its old row behind). The
// newest row under the current owner is the account's state, so the
// conditions hold on both.
func heldMints(ps *params, owner solana.Pubkey, zero, notOwned bool) string {
	o := ps.key(owner)
	cond := " AND owner = " + o + " AND NOT closed"
	if !zero {
		cond += " AND amount > 0"
	}
	inner := cond
	if notOwned {
		inner += " AND mint NOT IN (SELECT id FROM " + schema.TableAssetKeys + " FINAL WHERE path = " +
			ps.add("String", schema.AssetPathOwner) + " AND key = " + o + ")"
	}
	return "SELECT mint FROM " + schema.TableAssetTokenAccounts + " FINAL WHERE (mint, address) IN (SELECT mint, address FROM " +
		schema.TableAssetTokenOwners + " FINAL WHERE true" + inner + ")" + cond
}

// sortColumn is the column ordering by s, "" for SortNone.
func sortColumn(by string) (string, error) {
	switch by {
	case SortID, "":
		return "id", nil
	case SortCreated:
		return "created_slot", nil
	case SortUpdated, SortRecentAction:
		return "slot", nil
	case SortNone:
		return "", nil
	}
	return "", fmt.Errorf("unknown sort %q", by)
}

// Item is one asset of a page: its id and folded document (as
// asset_state holds it).
type Item struct {
	ID  solana.Pubkey
	Doc []byte
}

// Items returns one page of sc's assets in order, with their documents:
// one read of a key range, or, for a narrow scope or parts, the page's ids
// and then their documents.
func Items(ctx context.Context, s store.Querier, sc Scope, sort Sort, p Page) ([]Item, error) {
	col, err := sortColumn(sort.By)
	if err != nil {
		return nil, err
	}
	if p.Limit <= 0 {
		return nil, nil
	}
	ps := params{p: store.Params{}}
	for k, v := range sc.params {
		ps.p[k] = v
	}
	where := []string{"(" + sc.where + ")"}
	dir := " DESC"
	if sort.Asc {
		dir = " ASC"
	}
	if p.Before != nil {
		where = append(where, "id < "+ps.key(*p.Before))
	}
	if p.After != nil {
		where = append(where, "id > "+ps.key(*p.After))
	}
	if p.Cursor != nil {
		op := " < "
		if sort.Asc {
			op = " > "
		}
		where = append(where, "id"+op+ps.key(*p.Cursor))
	}
	order := ""
	switch col {
	case "":
		// Unordered, as the reference: table order, which is stable.
	case "id":
		order = " ORDER BY id" + dir
	default:
		order = " ORDER BY " + col + dir + ", id" + dir
	}
	offset := 0
	if p.Page > 1 {
		offset = (p.Page - 1) * p.Limit
	}
	page := " AND " + strings.Join(where[1:], " AND ")
	if len(where) == 1 {
		page = ""
	}
	if len(sc.parts) > 0 || sc.narrow {
		return narrowItems(ctx, s, sc, ps, page, col, order, sort.Asc, offset, p.Limit)
	}
	// A key range with the documents in it: one read in order.
	var b strings.Builder
	b.WriteString("SELECT id, doc FROM " + sc.from + " WHERE " + strings.Join(where, " AND ") + order +
		" LIMIT " + strconv.Itoa(p.Limit))
	if offset > 0 {
		b.WriteString(" OFFSET " + strconv.Itoa(offset))
	}
	res, err := s.Query(ctx, b.String(), ps.p)
	if err != nil {
		return nil, fmt.Errorf("list assets: %w", err)
	}
	out := make([]Item, 0, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		it := Item{ID: solana.Pubkey(r.Key(0)), Doc: []byte(r.Str(1))}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("list assets: %w", err)
		}
		out = append(out, it)
	}
	return out, nil
}

// narrowItems reads a narrow scope, or each part of sc in order up to the
// page's end, and merges them: a narrow one's ids and sort values first,
// from the narrow columns (with FINAL the engine reads every column of
// each row it filters, documents too), then the page's documents of those
// from asset_docs by id, one lookup each; the others with their documents,
// in their key range.
func narrowItems(ctx context.Context, s store.Querier, sc Scope, ps params, page, col, order string, asc bool, offset, n int) ([]Item, error) {
	parts := sc.parts
	if len(parts) == 0 {
		parts = []Scope{sc}
	}
	type row struct {
		item   Item
		sortBy uint64
		narrow bool
	}
	var rows []row
	for _, part := range parts {
		doc := "doc"
		if part.narrow || sc.narrow {
			doc = "''"
		}
		sortBy := "toUInt64(0)"
		if col != "" && col != "id" {
			sortBy = col
		}
		q := "SELECT id, " + doc + ", " + sortBy + " FROM " + part.from + " WHERE (" + part.where + ")" + page + order +
			" LIMIT " + strconv.Itoa(offset+n)
		res, err := s.Query(ctx, q, ps.p)
		if err != nil {
			return nil, fmt.Errorf("list assets: %w", err)
		}
		for i := range res.Rows {
			r := res.Row(i)
			it := row{item: Item{ID: solana.Pubkey(r.Key(0)), Doc: []byte(r.Str(1))}, sortBy: r.U64(2), narrow: doc != "doc"}
			if err := r.Err(); err != nil {
				return nil, fmt.Errorf("list assets: %w", err)
			}
			rows = append(rows, it)
		}
	}
	if col != "" && len(parts) > 1 {
		slices.SortStableFunc(rows, func(a, b row) int {
			c := cmp.Compare(a.sortBy, b.sortBy)
			if c == 0 {
				c = bytes.Compare(a.item.ID[:], b.item.ID[:])
			}
			if !asc {
				c = -c
			}
			return c
		})
	}
	rows = rows[min(offset, len(rows)):min(offset+n, len(rows))]
	var ids []solana.Pubkey
	for _, r := range rows {
		if r.narrow {
			ids = append(ids, r.item.ID)
		}
	}
	docs, err := assetrows.LoadFolded(ctx, s, ids)
	if err != nil {
		return nil, fmt.Errorf("list assets: %w", err)
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = r.item
		if r.narrow {
			// A row folded again since its ids were read shows as it is now.
			out[i].Doc = docs[r.item.ID].Doc
		}
	}
	return out, nil
}

// Count is how many assets sc holds.
func Count(ctx context.Context, s store.Querier, sc Scope) (uint64, error) {
	q := "SELECT count() FROM " + sc.from + " WHERE " + sc.where
	if len(sc.parts) > 0 {
		counts := make([]string, len(sc.parts))
		for i, part := range sc.parts {
			counts[i] = "(SELECT count() FROM " + part.from + " WHERE " + part.where + ")"
		}
		q = "SELECT " + strings.Join(counts, " + ")
	}
	res, err := s.Query(ctx, q, sc.params)
	if err != nil {
		return 0, fmt.Errorf("count assets: %w", err)
	}
	if len(res.Rows) == 0 {
		return 0, nil
	}
	r := res.Row(0)
	n := r.U64(0)
	return n, r.Err()
}
