package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type mintHoldersParams struct {
	Mint   *Pubkey `json:"mint"`
	Cursor *Cursor `json:"cursor"`
	Limit  *Limit  `json:"limit"`
	// ShowZeroBalance lists owners whose balance fell to 0 (dasch addition).
	ShowZeroBalance *bool `json:"showZeroBalance"`
}

// getCompressedMintTokenHolders lists the owners of a mint by balance, then
// owner, both descending; the cursor is u64-LE balance ‖ owner.
func getCompressedMintTokenHolders(d Deps) jsonrpc.Handler {
	fields := []string{"mint", "cursor", "limit", "showZeroBalance"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p mintHoldersParams
		if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
			return nil, err
		}
		if p.Mint == nil {
			return nil, jsonrpc.MissingField("mint")
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		page := compressed.HolderPage{Limit: limitOr(p.Limit), WithZero: p.ShowZeroBalance != nil && *p.ShowZeroBalance}
		if p.Cursor != nil {
			after, ok := compressed.HolderCursorFrom(*p.Cursor)
			if !ok {
				return nil, cursorLengthError(compressed.HolderCursorLen, len(*p.Cursor))
			}
			page.After = &after
		}
		if d.Hot != nil && d.Hot.Ready() {
			// The answer carries the slot the index reflects.
			if items, hslot, ok, err := d.Hot.Holders(compressed.Key(*p.Mint), page); ok {
				if err != nil {
					return nil, hotSlot(err)
				}
				return encodeHolders(hslot, items, page.Limit), nil
			}
		}
		items, err := compressed.MintHolders(ctx, d.Store, compressed.Key(*p.Mint), page)
		if err != nil {
			return nil, err
		}
		return encodeHolders(slot, items, page.Limit), nil
	}
}

func encodeHolders(slot uint64, items []compressed.Holder, limit uint64) json.RawMessage {
	b := make([]byte, 0, 96+len(items)*80)
	b = openContext(b, slot)
	b = append(b, `{"items":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"owner":`...)
		b = appendKey(b, it.Owner)
		b = append(b, `,"balance":`...)
		b = appendU64(b, it.Balance)
		b = append(b, '}')
	}
	b = append(b, "],"...)
	b = appendCursor(b, len(items), limit, func() []byte {
		last := items[len(items)-1]
		return compressed.HolderCursor{Balance: last.Balance, Owner: last.Owner}.Bytes()
	})
	b = append(b, '}')
	return closeContext(b)
}
