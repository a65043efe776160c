package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type accountsByOwnerParams struct {
	Owner     *Pubkey    `json:"owner"`
	Filters   FilterList `json:"filters"`
	DataSlice *DataSlice `json:"dataSlice"`
	Cursor    *Hash      `json:"cursor"`
	Limit     *Limit     `json:"limit"`
}

// accountsByOwner serves getCompressedAccountsByOwner in either shape: the
// owner's unspent accounts by leaf index then hash, the cursor being the
// last hash (compressed.AccountsByOwner), as Photon pages both versions.
func accountsByOwner(d Deps, v2 bool) jsonrpc.Handler {
	fields := []string{"owner", "filters", "dataSlice", "cursor", "limit"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p accountsByOwnerParams
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
		if len(p.Filters) > maxFilters {
			return nil, validationError("Too many filters. The maximum number of filters allowed is 5")
		}
		page := compressed.OwnerPage{Limit: limitOr(p.Limit), After: (*compressed.Key)(p.Cursor), AsOf: &slot}
		for _, f := range p.Filters {
			if f == nil {
				return nil, validationError("Filter instance cannot be null")
			}
			page.Filters = append(page.Filters, *f)
		}
		items, err := compressed.AccountsByOwner(ctx, d.Store, compressed.Key(*p.Owner), page)
		if err != nil {
			return nil, err
		}
		b := openContext(make([]byte, 0, 128+len(items)*700), slot)
		b = append(b, `{"items":[`...)
		var m keyMemo
		for i := range items {
			if i > 0 {
				b = append(b, ',')
			}
			a := &items[i]
			if p.DataSlice != nil && a.Data != nil {
				a.Data.Data = p.DataSlice.apply(a.Data.Data)
			}
			b = appendAccount(b, a, v2, &m)
		}
		b = append(b, "],"...)
		b = appendCursor(b, len(items), page.Limit, func() []byte {
			h := items[len(items)-1].Hash
			return h[:]
		})
		return closeContext(append(b, '}')), nil
	}
}
