package das

import (
	"context"
	"errors"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/query/solbalances"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// maxLimit is the largest page, and the page size when none is asked for.
const maxLimit = 1000

// Pagination errors, with the reference's texts.
const (
	errPaginationMode    = "Pagination Error. Only one pagination parameter supported per query."
	errPaginationEmpty   = "Pagination Error. No Pagination Method Selected"
	errPaginationLimit   = "Pagination Error. Limit should not be greater than 1000."
	errPaginationSorting = "Pagination Sorting Error. Only sorting based on id is supported for this pagination option."
)

// sorting is the sortBy param: {sortBy, sortDirection}.
type sorting struct {
	By  *string `json:"sortBy"`
	Dir *string `json:"sortDirection"`
}

var sortingFields = []string{"sortBy", "sortDirection"}

func (s *sorting) UnmarshalJSON(b []byte) error {
	type plain sorting
	var p plain
	if err := jsonrpc.DecodeParams(b, &p, sortingFields); err != nil {
		return err
	}
	if p.By == nil {
		return jsonrpc.InvalidParams("sortBy: missing field `sortBy`")
	}
	switch *p.By {
	case assetlist.SortID, assetlist.SortCreated, assetlist.SortUpdated, assetlist.SortRecentAction, assetlist.SortNone:
	default:
		return jsonrpc.InvalidParams("sortBy: unknown variant " + quote(*p.By) +
			", expected one of `id`, `created`, `updated`, `recent_action`, `none`")
	}
	if p.Dir != nil && *p.Dir != "asc" && *p.Dir != "desc" {
		return jsonrpc.InvalidParams("sortDirection: unknown variant " + quote(*p.Dir) + ", expected `asc` or `desc`")
	}
	*s = sorting(p)
	return nil
}

func (s *sorting) sort() assetlist.Sort {
	out := assetlist.Sort{By: assetlist.SortID}
	if s == nil {
		return out
	}
	if s.By != nil {
		out.By = *s.By
	}
	out.Asc = s.Dir != nil && *s.Dir == "asc"
	return out
}

// paging is the pagination params every list method takes.
type paging struct {
	Limit  *uint32
	Page   *uint32
	Before *string
	After  *string
	Cursor *string
}

// pageMode is how a list request pages, as the reference decides it.
type pageMode int

const (
	modeCursor pageMode = iota // cursor, the default: answers with the next cursor
	modePage                   // page numbers (offsets)
	modeKeyset                 // before / after ids
)

// page validates p against sort as the reference does and returns the
// page to read and its mode. Empty before/after count as absent.
func (p paging) page(sort assetlist.Sort) (assetlist.Page, pageMode, error) {
	out := assetlist.Page{Limit: maxLimit}
	if p.Limit != nil {
		if *p.Limit > maxLimit {
			return out, 0, invalidParams(errPaginationLimit)
		}
		out.Limit = int(*p.Limit)
	}
	if p.Before != nil && *p.Before == "" {
		p.Before = nil
	}
	if p.After != nil && *p.After == "" {
		p.After = nil
	}
	mode := modeCursor
	if p.Page != nil {
		if *p.Page == 0 {
			return out, 0, invalidParams(errPaginationEmpty)
		}
		if p.Before != nil || p.After != nil || p.Cursor != nil {
			return out, 0, invalidParams(errPaginationMode)
		}
		out.Page, mode = int(*p.Page), modePage
	}
	for _, k := range []struct {
		s   *string
		dst **solana.Pubkey
	}{{p.Before, &out.Before}, {p.After, &out.After}} {
		if k.s == nil {
			continue
		}
		if p.Cursor != nil {
			return out, 0, invalidParams(errPaginationMode)
		}
		if sort.By != assetlist.SortID {
			return out, 0, invalidParams(errPaginationSorting)
		}
		key, err := solana.ParsePubkey(*k.s)
		if err != nil {
			return out, 0, invalidParams("Pubkey Validation Err: " + *k.s + " is invalid")
		}
		*k.dst, mode = &key, modeKeyset
	}
	if mode == modeCursor {
		if sort.By != assetlist.SortID {
			return out, 0, invalidParams(errPaginationSorting)
		}
		if p.Cursor != nil {
			raw, err := base58.Decode(*p.Cursor)
			if err != nil || len(raw) != 32 {
				return out, 0, invalidParams("Cursor Validation Err: " + *p.Cursor + " is invalid")
			}
			key := solana.Pubkey(raw)
			out.Cursor = &key
		}
	}
	return out, mode, nil
}

// members are what an answer in mode says of its page: its number, the
// before / after given, or the cursor to resume from (next; none when
// empty).
func (p paging) members(mode pageMode, pg assetlist.Page, next string) (page *int, before, after, cursor *string) {
	switch mode {
	case modePage:
		n := pg.Page
		page = &n
	case modeKeyset:
		before, after = p.Before, p.After
	case modeCursor:
		if next != "" {
			cursor = &next
		}
	}
	return page, before, after, cursor
}

// assetList is the answer of every list method. Total is the number of
// items on the page, as the reference counts it; GrandTotal, with
// showGrandTotal, every asset of the listing.
type assetList struct {
	LastIndexedSlot uint64         `json:"last_indexed_slot"`
	GrandTotal      *uint64        `json:"grand_total,omitempty"`
	Total           int            `json:"total"`
	Limit           int            `json:"limit"`
	Page            *int           `json:"page,omitempty"`
	Before          *string        `json:"before,omitempty"`
	After           *string        `json:"after,omitempty"`
	Cursor          *string        `json:"cursor,omitempty"`
	NativeBalance   *nativeBalance `json:"nativeBalance,omitempty"`
	// Items are spliced in by encode, unchanged: each is an answer.
	Items  []json.RawMessage `json:"-"`
	Errors []listError       `json:"errors,omitempty"`
}

// nativeBalance is Helius's showNativeBalance member. Its price members
// wait for token prices, and are left out until then.
type nativeBalance struct {
	Lamports uint64 `json:"lamports"`
}

type listError struct {
	ID    string `json:"id"`
	Error string `json:"error"`
}

// listRequest is one list call after its params are checked.
type listRequest struct {
	scope  assetlist.Scope
	sort   assetlist.Sort
	paging paging
	opts   Options
	// wallet is the owner whose native balance showNativeBalance adds.
	wallet *solana.Pubkey
	// decorate, when set, adds to the page's items what the listing
	// knows beyond their documents; it may replace items.
	decorate func(ctx context.Context, items []json.RawMessage) error
}

// list answers r: one read of the page's assets with their folded
// documents, viewed with the display options.
func (d Deps) list(ctx context.Context, method string, r listRequest) (any, error) {
	pg, mode, err := r.paging.page(r.sort)
	if err != nil {
		return nil, err
	}
	slot, err := d.Slots.IndexedSlot(ctx)
	if err != nil {
		return nil, failed(d, method, err)
	}
	items, err := assetlist.Items(ctx, d.Store, r.scope, r.sort, pg)
	if err != nil {
		return nil, failed(d, method, err)
	}
	out := &assetList{LastIndexedSlot: slot, Limit: pg.Limit, Items: make([]json.RawMessage, 0, len(items))}
	ids := make([]solana.Pubkey, 0, len(items)) // of out.Items
	for _, it := range items {
		res := assetrows.ViewDoc(it.ID, it.Doc, r.opts.Options)
		if res.Err == nil {
			var a json.RawMessage
			if a, res.Err = res.Answer(slot); res.Err == nil {
				out.Items = append(out.Items, a)
				ids = append(ids, it.ID)
				continue
			}
		}
		switch {
		case errors.Is(res.Err, asset.ErrNotFound):
			// A row without a document: nothing to show.
		default:
			out.Errors = append(out.Errors, listError{ID: it.ID.String(), Error: res.Err.Error()})
		}
	}
	out.Total = len(out.Items)
	if r.decorate != nil {
		if err := r.decorate(ctx, out.Items); err != nil {
			return nil, failed(d, method, err)
		}
	}
	d.priceItems(ids, out.Items, r.opts.Options)
	next := ""
	if n := len(items); n > 0 {
		next = items[n-1].ID.String()
	}
	out.Page, out.Before, out.After, out.Cursor = r.paging.members(mode, pg, next)
	if r.opts.NativeBalance && r.wallet != nil {
		if out.NativeBalance, err = d.nativeBalance(ctx, *r.wallet); err != nil {
			return nil, failed(d, method, err)
		}
	}
	if r.opts.GrandTotal {
		n, err := assetlist.Count(ctx, d.Store, r.scope)
		if err != nil {
			return nil, failed(d, method, err)
		}
		out.GrandTotal = &n
	}
	return out.encode()
}

// nativeBalance is the lamports the newest indexed transaction naming
// wallet left in it, else the followed node's balance, else nil (unknown).
func (d Deps) nativeBalance(ctx context.Context, wallet solana.Pubkey) (*nativeBalance, error) {
	lamports, _, ok, err := solbalances.Newest(ctx, d.Store, wallet)
	if err != nil {
		return nil, err
	}
	if ok {
		return &nativeBalance{Lamports: lamports}, nil
	}
	if d.NodeBalance == nil {
		return nil, nil
	}
	lamports, err = d.NodeBalance(ctx, wallet)
	if err != nil {
		// The listing stands without it.
		d.Logger.Warn("native balance from the node", "wallet", wallet, "err", err)
		return nil, nil
	}
	return &nativeBalance{Lamports: lamports}, nil
}

// encode is the list's JSON, its items written as they are (encoding
// them as json.RawMessage would scan each one again to compact it).
func (l *assetList) encode() (json.RawMessage, error) {
	head, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	return appendItems(head[:len(head)-1], l.Items, `,"items":`, '}'), nil
}

// appendItems appends the answers as a JSON array, after prefix and
// followed by suffix (0: none).
func appendItems(dst []byte, items []json.RawMessage, prefix string, suffix byte) []byte {
	n := len(dst) + len(prefix) + len(items) + 3
	for _, it := range items {
		n += len(it)
	}
	out := make([]byte, 0, n)
	out = append(append(append(out, dst...), prefix...), '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	out = append(out, ']')
	if suffix != 0 {
		out = append(out, suffix)
	}
	return out
}

// address decodes a required base58 address param, with the reference's
// error text.
func address(name string, s *string) (solana.Pubkey, error) {
	if s == nil {
		return solana.Pubkey{}, invalidParams("Invalid params: missing field `" + name + "`")
	}
	k, err := solana.ParsePubkey(*s)
	if err != nil {
		return k, invalidParams("Pubkey Validation Err: " + *s + " is invalid")
	}
	return k, nil
}

// optAddress decodes an optional base58 address param.
func optAddress(s *string) (*solana.Pubkey, error) {
	if s == nil {
		return nil, nil
	}
	k, err := solana.ParsePubkey(*s)
	if err != nil {
		return nil, invalidParams("Validation Error: Invalid pubkey " + *s)
	}
	return &k, nil
}

// rawJSON is a member kept as encoded JSON.
type rawJSON = json.RawMessage
