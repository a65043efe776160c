package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// tokenAccountsParams are the params of the token accounts methods; the
// first field is owner or delegate.
type tokenAccountsParams struct {
	Owner    *Pubkey `json:"owner"`
	Delegate *Pubkey `json:"delegate"`
	Mint     *Pubkey `json:"mint"`
	Cursor   *Cursor `json:"cursor"`
	Limit    *Limit  `json:"limit"`
}

// HotTokens serves token account pages from memory (hotindex.Tokens) with
// the semantics of the query layer and the slot its data reflects; ok is
// false when it does not hold the key, and the store answers. It returns
// checkpoint.ErrNotIndexed while no slot has been indexed.
type HotTokens interface {
	ByOwner(owner compressed.Key, p compressed.TokenPage) (items []compressed.Account, slot uint64, ok bool, err error)
	ByDelegate(delegate compressed.Key, p compressed.TokenPage) (items []compressed.Account, slot uint64, ok bool, err error)
}

// tokenLister reads one page for one authority.
type tokenLister func(ctx context.Context, s store.Querier, who compressed.Key, p compressed.TokenPage) ([]compressed.Account, error)

// tokenAccounts serves the by-owner and by-delegate methods, V1 and V2:
// one keyset page ordered by mint, then hash.
func tokenAccounts(d Deps, authority string, list tokenLister, v2 bool) jsonrpc.Handler {
	fields := []string{authority, "mint", "cursor", "limit"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p tokenAccountsParams
		if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
			return nil, err
		}
		who := p.Owner
		if authority == "delegate" {
			who = p.Delegate
		}
		if who == nil {
			return nil, jsonrpc.MissingField(authority)
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		page := compressed.TokenPage{Limit: limitOr(p.Limit), Mint: (*compressed.Key)(p.Mint), AsOf: &slot}
		if p.Cursor != nil {
			after, ok := compressed.TokenCursorFrom(*p.Cursor)
			if !ok {
				return nil, cursorLengthError(compressed.TokenCursorLen, len(*p.Cursor))
			}
			page.After = &after
		}
		if d.HotTokens != nil {
			hot := d.HotTokens.ByOwner
			if authority == "delegate" {
				hot = d.HotTokens.ByDelegate
			}
			// The answer carries the slot the index reflects.
			if items, hotSlotNo, ok, err := hot(compressed.Key(*who), page); ok {
				if err != nil {
					return nil, hotSlot(err)
				}
				return encodeTokenAccounts(hotSlotNo, items, page.Limit, v2), nil
			}
		}
		items, err := list(ctx, d.Store, compressed.Key(*who), page)
		if err != nil {
			return nil, err
		}
		return encodeTokenAccounts(slot, items, page.Limit, v2), nil
	}
}

func encodeTokenAccounts(slot uint64, items []compressed.Account, limit uint64, v2 bool) json.RawMessage {
	b := make([]byte, 0, 128+len(items)*900)
	b = openContext(b, slot)
	b = append(b, `{"items":[`...)
	var m keyMemo
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTokenAccount(b, &items[i], v2, &m)
	}
	b = append(b, "],"...)
	b = appendCursor(b, len(items), limit, func() []byte {
		last := items[len(items)-1]
		return compressed.TokenCursor{Mint: last.Mint, Hash: last.Hash}.Bytes()
	})
	b = append(b, '}')
	return closeContext(b)
}
