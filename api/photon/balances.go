package photon

import (
	"context"
	"errors"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// HotIndex serves holder and balance pages from memory with the semantics
// of the query layer, with the slot its data reflects; it returns
// checkpoint.ErrNotIndexed while no slot has been indexed. Until it is Ready (it
// may load after the server starts) the store answers, as it does when ok
// is false: the index does not hold that owner or mint.
type HotIndex interface {
	Ready() bool
	Holders(mint compressed.Key, p compressed.HolderPage) (items []compressed.Holder, slot uint64, ok bool, err error)
	Balances(owner compressed.Key, p compressed.BalancePage) (items []compressed.TokenBalance, slot uint64, ok bool, err error)
}

// hotSlot maps the index's "not indexed" to the error contextSlot gives.
func hotSlot(err error) error {
	if errors.Is(err, checkpoint.ErrNotIndexed) {
		return recordNotFound("No data has been indexed")
	}
	return err
}

type tokenBalancesParams struct {
	Owner  *Pubkey `json:"owner"`
	Mint   *Pubkey `json:"mint"`
	Cursor *Cursor `json:"cursor"`
	Limit  *Limit  `json:"limit"`
	// ShowZeroBalance lists mints whose balance fell to 0 (dasch addition).
	ShowZeroBalance *bool `json:"showZeroBalance"`
}

// tokenBalances serves both balance methods; listKey is the name of the
// list member, which V1 spells in snake case.
func tokenBalances(d Deps, listKey string) jsonrpc.Handler {
	fields := []string{"owner", "mint", "cursor", "limit", "showZeroBalance"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p tokenBalancesParams
		if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
			return nil, err
		}
		if p.Owner == nil {
			return nil, jsonrpc.MissingField("owner")
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		page := compressed.BalancePage{Limit: limitOr(p.Limit), Mint: (*compressed.Key)(p.Mint), WithZero: p.ShowZeroBalance != nil && *p.ShowZeroBalance}
		if p.Cursor != nil {
			if len(*p.Cursor) != 32 {
				return nil, cursorLengthError(32, len(*p.Cursor))
			}
			// Applied with a mint filter too: Photon ignores it there and
			// repeats the same page forever.
			page.AfterMint = (*compressed.Key)(*p.Cursor)
		}
		if d.Hot != nil && d.Hot.Ready() {
			// The answer carries the slot the index reflects.
			if items, hslot, ok, err := d.Hot.Balances(compressed.Key(*p.Owner), page); ok {
				if err != nil {
					return nil, hotSlot(err)
				}
				return encodeTokenBalances(hslot, listKey, items, page.Limit), nil
			}
		}
		items, err := compressed.TokenBalancesByOwner(ctx, d.Store, compressed.Key(*p.Owner), page)
		if err != nil {
			return nil, err
		}
		return encodeTokenBalances(slot, listKey, items, page.Limit), nil
	}
}

func encodeTokenBalances(slot uint64, listKey string, items []compressed.TokenBalance, limit uint64) json.RawMessage {
	b := make([]byte, 0, 96+len(items)*80)
	b = openContext(b, slot)
	b = append(b, `{"`...)
	b = append(b, listKey...)
	b = append(b, `":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"mint":`...)
		b = appendKey(b, it.Mint)
		b = append(b, `,"balance":`...)
		b = appendU64(b, it.Balance)
		b = append(b, '}')
	}
	b = append(b, "],"...)
	b = appendCursor(b, len(items), limit, func() []byte {
		m := items[len(items)-1].Mint
		return m[:]
	})
	b = append(b, '}')
	return closeContext(b)
}
