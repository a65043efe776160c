package photon

import (
	"context"

	"github.com/goccy/go-json"

	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

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
func tokenBalances(d Deps, listKey string) server.Handler {
	fields := []string{"owner", "mint", "cursor", "limit", "showZeroBalance"}
	return func(ctx context.Context, c *server.Call) (any, error) {
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
		page := qc.BalancePage{Limit: limitOr(p.Limit), Mint: (*qc.Key)(p.Mint), WithZero: p.ShowZeroBalance != nil && *p.ShowZeroBalance}
		if p.Cursor != nil {
			if len(*p.Cursor) != 32 {
				return nil, cursorLengthError(32, len(*p.Cursor))
			}
			// Applied with a mint filter too: Photon ignores it there and
			// repeats the same page forever.
			page.AfterMint = (*qc.Key)(*p.Cursor)
		}
		items, err := qc.TokenBalancesByOwner(ctx, d.Store, qc.Key(*p.Owner), page)
		if err != nil {
			return nil, err
		}
		return encodeTokenBalances(slot, listKey, items, page.Limit), nil
	}
}

func encodeTokenBalances(slot uint64, listKey string, items []qc.TokenBalance, limit uint64) json.RawMessage {
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
