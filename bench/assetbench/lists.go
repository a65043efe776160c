package assetbench

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/bench/internal/measure"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Targets of the listing methods through the HTTP server (p99).
const (
	TargetListPageP99   = 30 * time.Millisecond  // an owner's or a group's page of 1000, any depth
	TargetListOffsetP99 = 60 * time.Millisecond  // page mode, page 50
	TargetSearchP99     = 100 * time.Millisecond // searchAssets
	TargetGrandTotalP99 = 200 * time.Millisecond // showGrandTotal on the big collection
)

const (
	// listPage is the page size of every listing series: the largest.
	listPage = 1000
	// listDeepPage is page mode's page at 10M assets, where the big owner
	// holds 100 pages; fewer pages scale it down to the middle one.
	listDeepPage = 50
	// deepShare is where the deep cursor points, as a share of the listing.
	deepShare = 0.9
	// searchName is the name searched among the big owner's assets: the
	// Token Metadata NFTs' prefix.
	searchName = "Synthetic #"
)

// ListRow is one listing request: through the HTTP server (reading the
// store) and in PostgreSQL with the reference's queries; Conc is the
// same request from Cfg.ListClients clients, for the first pages.
type ListRow struct {
	Label  string
	Target time.Duration // zero: none
	// Items is how many assets dasch answered, PGItems the reference's;
	// Same whether they are the same ids in the same order.
	Items, PGItems int
	Same           bool
	// GrandTotal and PGGrandTotal are the counts showGrandTotal answered.
	GrandTotal, PGGrandTotal int64
	// IDs is the page dasch answered.
	IDs            []solana.Pubkey
	HTTP, PG, Conc Series
	// Note says what the request is, when the label does not.
	Note string
}

// KeyStats is how many assets the keys of one listing path hold.
type KeyStats struct {
	Keys, Min, Median, Max int
}

// ListFigures is what the listing series ran on.
type ListFigures struct {
	// Assets listed under each, by dasch: the big owner, the small owner,
	// the big collection's verified members, the big creator.
	BigOwner, SmallOwner, BigCollection, BigCreator int
	// Owners, Creators, Authorities and Collections are the spread of
	// every key of those paths.
	Owners, Creators, Authorities, Collections KeyStats
	// Page is page mode's page (listDeepPage unless scaled down).
	Page int
	Rows []ListRow
}

// listAnswer is the part of a list answer the series check.
type listAnswer struct {
	Result struct {
		Total      int     `json:"total"`
		GrandTotal *uint64 `json:"grand_total"`
		Cursor     *string `json:"cursor"`
		Items      []struct {
			ID string `json:"id"`
		} `json:"items"`
	} `json:"result"`
}

// listIDs posts body and returns the page's ids, and the grand total
// when asked for.
func (c *rpcClient) listIDs(ctx context.Context, body []byte) ([]solana.Pubkey, *uint64, error) {
	b, err := c.Post(ctx, body)
	if err != nil {
		return nil, nil, err
	}
	var a listAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, nil, fmt.Errorf("decode answer: %w", err)
	}
	ids := make([]solana.Pubkey, len(a.Result.Items))
	for i, it := range a.Result.Items {
		if ids[i], err = solana.ParsePubkey(it.ID); err != nil {
			return nil, nil, fmt.Errorf("item %d: %w", i, err)
		}
	}
	if a.Result.Total != len(ids) {
		return nil, nil, fmt.Errorf("total %d for %d items", a.Result.Total, len(ids))
	}
	return ids, a.Result.GrandTotal, nil
}

// listBody is a list method's request: params, then limit and paging.
func listBody(method, params string, page int, cursor *solana.Pubkey) []byte {
	b := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + `,"limit":` + strconv.Itoa(listPage)
	if page > 0 {
		b += `,"page":` + strconv.Itoa(page)
	}
	if cursor != nil {
		b += `,"cursor":"` + base58.Encode(cursor[:]) + `"`
	}
	return []byte(b + `}}`)
}

func addr(k solana.Pubkey) string { return `"` + base58.Encode(k[:]) + `"` }

func ownerParams(k solana.Pubkey) string { return `"ownerAddress":` + addr(k) }

func groupParams(k solana.Pubkey) string {
	return `"groupKey":"collection","groupValue":` + addr(k)
}

// follow lists every id of a listing by following its cursors, untimed.
func (c *rpcClient) follow(ctx context.Context, method, params string) ([]solana.Pubkey, error) {
	var all []solana.Pubkey
	var cursor *solana.Pubkey
	for {
		ids, _, err := c.listIDs(ctx, listBody(method, params, 0, cursor))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		all = append(all, ids...)
		if len(ids) < listPage {
			return all, nil
		}
		cursor = &all[len(all)-1]
	}
}

// listCase is one listing series: dasch's request and the reference's.
type listCase struct {
	row  ListRow
	body []byte
	// want is the page dasch must answer; nil for a search, whose page
	// must only be non-empty and in descending id order.
	want []solana.Pubkey
	// grandTotal asks the answer to hold one of at least its page.
	grandTotal bool
	pg         pgList
	conc       bool
}

// deep returns the cursor deepShare into ids and the page after it.
func deep(ids []solana.Pubkey) (*solana.Pubkey, []solana.Pubkey) {
	k := min(len(ids)-1, int(deepShare*float64(len(ids))))
	return &ids[k], ids[k+1 : min(len(ids), k+1+listPage)]
}

// offsetPage is page mode's page over n assets: listDeepPage, or the
// middle page when there are fewer than 2×listDeepPage pages.
func offsetPage(n int) int {
	return max(1, min(listDeepPage, (n+2*listPage-1)/(2*listPage)))
}

// listCases finds the listings' keys, follows their cursors untimed and
// lays out the series.
func (m *measurer) listCases(ctx context.Context) ([]listCase, error) {
	lf := &m.rep.Lists
	stats, err := keyStats(ctx, m.ps.s)
	if err != nil {
		return nil, err
	}
	lf.Owners, lf.Creators, lf.Authorities, lf.Collections = stats[schema.AssetPathOwner], stats[schema.AssetPathCreator],
		stats[schema.AssetPathAuthority], stats[schema.AssetPathGroup+"collection"]
	small, err := medianOwner(ctx, m.ps.s, lf.Owners.Median, m.p.BigOwner())
	if err != nil {
		return nil, err
	}
	c := m.ps.rpc
	big, col := m.p.BigOwner(), m.p.BigCollection()
	owned, err := c.follow(ctx, "getAssetsByOwner", ownerParams(big))
	if err != nil {
		return nil, err
	}
	members, err := c.follow(ctx, "getAssetsByGroup", groupParams(col))
	if err != nil {
		return nil, err
	}
	smallOwned, err := c.follow(ctx, "getAssetsByOwner", ownerParams(small))
	if err != nil {
		return nil, err
	}
	if len(owned) == 0 || len(members) == 0 || len(smallOwned) == 0 {
		return nil, fmt.Errorf("listing: big owner %d assets, big collection %d, small owner %d: nothing to list",
			len(owned), len(members), len(smallOwned))
	}
	creator := m.p.BigCreator()
	lf.BigOwner, lf.BigCollection, lf.SmallOwner = len(owned), len(members), len(smallOwned)
	if lf.BigCreator, err = keyCount(ctx, m.ps.s, schema.AssetPathCreator, creator); err != nil {
		return nil, err
	}
	lf.Page = offsetPage(len(owned))
	ownerCursor, ownerDeep := deep(owned)
	groupCursor, groupDeep := deep(members)
	pageFrom := min(len(owned), (lf.Page-1)*listPage)
	pageNote := ""
	if lf.Page != listDeepPage {
		pageNote = fmt.Sprintf("page %d of %d assets: page %d scaled to the middle (the big owner holds fewer than %s)",
			lf.Page, len(owned), listDeepPage, measure.Count(2*listDeepPage*listPage))
	}
	search := func(params string) []byte {
		return listBody("searchAssets", params, 0, nil)
	}
	deepNote := func(n int) string {
		return fmt.Sprintf("cursor at asset %d of %d", int(deepShare*float64(n))+1, n)
	}
	cases := []listCase{
		{row: ListRow{Label: "getAssetsByOwner big owner, first page", Target: TargetListPageP99},
			body: listBody("getAssetsByOwner", ownerParams(big), 0, nil), want: owned[:min(len(owned), listPage)],
			pg: pgOwnerPage(big, nil, 0), conc: true},
		{row: ListRow{Label: "getAssetsByOwner big owner, deep cursor", Target: TargetListPageP99, Note: deepNote(len(owned))},
			body: listBody("getAssetsByOwner", ownerParams(big), 0, ownerCursor), want: ownerDeep,
			pg: pgOwnerPage(big, ownerCursor, 0)},
		{row: ListRow{Label: "getAssetsByOwner big owner, page mode", Target: TargetListOffsetP99, Note: pageNote},
			body: listBody("getAssetsByOwner", ownerParams(big), lf.Page, nil),
			want: owned[pageFrom:min(len(owned), pageFrom+listPage)], pg: pgOwnerPage(big, nil, lf.Page)},
		{row: ListRow{Label: "getAssetsByOwner small owner", Note: fmt.Sprintf("an owner of the median %d", lf.Owners.Median)},
			body: listBody("getAssetsByOwner", ownerParams(small), 0, nil), want: smallOwned[:min(len(smallOwned), listPage)],
			pg: pgOwnerPage(small, nil, 0), conc: true},
		{row: ListRow{Label: "getAssetsByGroup big collection, first page", Target: TargetListPageP99},
			body: listBody("getAssetsByGroup", groupParams(col), 0, nil), want: members[:min(len(members), listPage)],
			pg: pgGroupPage(col, nil), conc: true},
		{row: ListRow{Label: "getAssetsByGroup big collection, deep cursor", Target: TargetListPageP99, Note: deepNote(len(members))},
			body: listBody("getAssetsByGroup", groupParams(col), 0, groupCursor), want: groupDeep,
			pg: pgGroupPage(col, groupCursor)},
		{row: ListRow{Label: "searchAssets owner + tokenType fungible", Target: TargetSearchP99, Note: "the big owner"},
			body: search(ownerParams(big) + `,"tokenType":"fungible"`), pg: pgSearchOwnerFungible(big)},
		{row: ListRow{Label: "searchAssets grouping + burnt false", Target: TargetSearchP99, Note: "the big collection"},
			body: search(`"grouping":["collection",` + addr(col) + `],"burnt":false`), pg: pgSearchGroupNotBurnt(col)},
		{row: ListRow{Label: "searchAssets creator + creatorVerified true", Target: TargetSearchP99,
			Note: fmt.Sprintf("the big creator, %s assets", measure.Count(lf.BigCreator))},
			body: search(`"creatorAddress":` + addr(creator) + `,"creatorVerified":true`), pg: pgSearchCreatorVerified(creator)},
		{row: ListRow{Label: "searchAssets owner + name", Target: TargetSearchP99, Note: fmt.Sprintf("the big owner, name %q", searchName)},
			body: search(ownerParams(big) + `,"name":"` + searchName + `"`), pg: pgSearchOwnerName(big, searchName)},
		// Programmable NFTs are always frozen in the generated state.
		{row: ListRow{Label: "searchAssets interface ProgrammableNFT + frozen true", Target: TargetSearchP99},
			body: search(`"interface":"ProgrammableNFT","frozen":true`), pg: pgSearchPNFTFrozen()},
		{row: ListRow{Label: "searchAssets interface MplCoreAsset", Target: TargetSearchP99, Note: "no other condition"},
			body: search(`"interface":"MplCoreAsset"`), pg: pgSearchInterface("MPL_CORE_ASSET")},
		{row: ListRow{Label: "getAssetsByOwner big owner, showFungible", Target: TargetListPageP99,
			Note: "the owner's assets and the fungibles it holds"},
			body: listBody("getAssetsByOwner", ownerParams(big)+`,"options":{"showFungible":true}`, 0, nil), pg: pgOwnerFungible(big)},
		{row: ListRow{Label: "searchAssets grouping, showGrandTotal", Target: TargetGrandTotalP99, Note: "the big collection, first page and its count"},
			body: search(`"grouping":["collection",` + addr(col) + `],"options":{"showGrandTotal":true}`), grandTotal: true,
			pg: pgSearchGroupTotal(col)},
	}
	return cases, nil
}

// verifyList checks an answer's ids: want's exactly, or, without want, a
// non-empty page in descending id order.
func verifyList(ids []solana.Pubkey, want []solana.Pubkey, search bool) error {
	if !search {
		if !slices.Equal(ids, want) {
			return fmt.Errorf("answered %d ids, want %d (the listing's own, followed by cursors)", len(ids), len(want))
		}
		return nil
	}
	if len(ids) == 0 {
		return fmt.Errorf("empty page")
	}
	for i := 1; i < len(ids); i++ {
		if bytes.Compare(ids[i-1][:], ids[i][:]) <= 0 {
			return fmt.Errorf("ids %d and %d not in descending order", i-1, i)
		}
	}
	return nil
}

// listHTTP is a case's request through the server; the warmup checks the
// answer.
func (m *measurer) listHTTP(lc *listCase) request {
	return func(ctx context.Context, _ int, verify bool) error {
		if !verify {
			return m.ps.rpc.Send(ctx, lc.body)
		}
		ids, total, err := m.ps.rpc.listIDs(ctx, lc.body)
		if err == nil {
			err = verifyList(ids, lc.want, lc.want == nil)
		}
		if err == nil && lc.grandTotal && (total == nil || *total < uint64(len(ids))) {
			err = fmt.Errorf("grand total %v for a page of %d", total, len(ids))
		}
		return err
	}
}

// lists measures the listing series.
func (m *measurer) lists(ctx context.Context) error {
	m.say("listing: following the big owner's and the big collection's cursors")
	cases, err := m.listCases(ctx)
	if err != nil {
		return err
	}
	lf := &m.rep.Lists
	m.say("listing: big owner %d assets, big collection %d, big creator %d, small owner %d; page mode page %d",
		lf.BigOwner, lf.BigCollection, lf.BigCreator, lf.SmallOwner, lf.Page)
	for i := range cases {
		lc := &cases[i]
		row := &lc.row
		m.say("%s: measuring", row.Label)
		ids, total, err := m.ps.rpc.listIDs(ctx, lc.body)
		if err != nil {
			return fmt.Errorf("%s: %w", row.Label, err)
		}
		row.Items, row.IDs = len(ids), ids
		if total != nil {
			row.GrandTotal = int64(*total)
		}
		if row.HTTP, err = sequential(ctx, m.cfg.List, m.listHTTP(lc)); err != nil {
			return fmt.Errorf("%s: %w", row.Label, err)
		}
		if m.ps.pg != nil {
			pgIDs, n, err := lc.pg.run(ctx, m.ps.pg)
			if err != nil {
				return fmt.Errorf("%s, postgres: %w", row.Label, err)
			}
			row.PGItems, row.Same, row.PGGrandTotal = len(pgIDs), slices.Equal(pgIDs, ids), n
			if row.PG, err = sequential(ctx, m.cfg.List, func(ctx context.Context, _ int, verify bool) error {
				got, _, err := lc.pg.run(ctx, m.ps.pg)
				if err == nil && verify && len(got) != row.PGItems {
					err = fmt.Errorf("answered %d assets, then %d", row.PGItems, len(got))
				}
				return err
			}); err != nil {
				return fmt.Errorf("%s, postgres: %w", row.Label, err)
			}
		}
		if lc.conc {
			if row.Conc, err = concurrent(ctx, m.cfg.ListClients, m.cfg.ListConcurrent, m.listHTTP(lc)); err != nil {
				return fmt.Errorf("%s, %d clients: %w", row.Label, m.cfg.ListClients, err)
			}
		}
		lf.Rows = append(lf.Rows, *row)
	}
	return nil
}

// keyStats is the spread of assets over the keys of each listing path:
// owner, creator, authority, and the collections' verified members.
func keyStats(ctx context.Context, s store.Querier) (map[string]KeyStats, error) {
	res, err := s.Query(ctx, `SELECT path, toUInt64(count()), toUInt64(min(n)), toUInt64(quantileExact(0.5)(n)), toUInt64(max(n))
		FROM (SELECT path, key, count() AS n FROM `+schema.TableAssetKeys+` FINAL
			WHERE path IN ('`+schema.AssetPathOwner+`', '`+schema.AssetPathCreator+`', '`+schema.AssetPathAuthority+`', '`+
		schema.AssetPathGroup+`collection') AND (verified OR path != '`+schema.AssetPathGroup+`collection')
			GROUP BY path, key)
		GROUP BY path`, nil)
	if err != nil {
		return nil, fmt.Errorf("listing keys: %w", err)
	}
	out := map[string]KeyStats{}
	for i := range res.Rows {
		r := res.Row(i)
		path := r.Str(0)
		out[path] = KeyStats{Keys: int(r.U64(1)), Min: int(r.U64(2)), Median: int(r.U64(3)), Max: int(r.U64(4))}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("listing keys: %w", err)
		}
	}
	return out, nil
}

// medianOwner is an owner of n assets, other than not.
func medianOwner(ctx context.Context, s store.Querier, n int, not solana.Pubkey) (solana.Pubkey, error) {
	res, err := s.Query(ctx, `SELECT key FROM (SELECT key, count() AS n FROM `+schema.TableAssetKeys+` FINAL
			WHERE path = {path:String} AND key != {not:FixedString(32)} GROUP BY key)
		ORDER BY abs(toInt64(n) - {n:Int64}), key LIMIT 1`,
		store.Params{"path": schema.AssetPathOwner, "not": string(not[:]), "n": strconv.Itoa(n)})
	if err != nil || len(res.Rows) == 0 {
		return solana.Pubkey{}, fmt.Errorf("listing: no owner of %d assets (%v)", n, err)
	}
	r := res.Row(0)
	k := solana.Pubkey(r.Key(0))
	return k, r.Err()
}

// keyCount is how many assets key lists on path.
func keyCount(ctx context.Context, s store.Querier, path string, key solana.Pubkey) (int, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(count()) FROM `+schema.TableAssetKeys+` FINAL
		WHERE path = {path:String} AND key = {key:FixedString(32)}`, store.Params{"path": path, "key": string(key[:])})
	if err != nil {
		return 0, fmt.Errorf("listing: %w", err)
	}
	r := res.Row(0)
	n := r.U64(0)
	return int(n), r.Err()
}

// Name is the row's series name in the run's record.
func (r ListRow) Name() string { return seriesName(r.Label) }
