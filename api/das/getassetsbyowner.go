package das

import (
	"context"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/query/tokenaccounts"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getAssetsByOwnerFields = listFields("ownerAddress")

// getAssetsByOwner lists the assets an address owns.
func getAssetsByOwner(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, getAssetsByOwnerFields); err != nil {
			return nil, err
		}
		owner, err := address("ownerAddress", p.OwnerAddress)
		if err != nil {
			return nil, err
		}
		opts := p.options()
		r := listRequest{
			scope: assetlist.ByKey(schema.AssetPathOwner, owner, false),
			sort:  p.SortBy.sort(), paging: p.paging(), opts: opts,
		}
		if opts.ShowFungible {
			// As Helius: the fungibles the owner holds, with its holding.
			r.scope = assetlist.ByOwnerWithFungibles(owner, opts.ShowZeroBalance)
			r.decorate = func(ctx context.Context, items []*asset.Asset) error {
				return d.addHoldings(ctx, owner, items)
			}
		}
		return d.list(ctx, c.Method, r)
	}
}

// addHoldings sets token_info.balance and associated_token_address on
// the fungible items: owner's holding of each.
func (d Deps) addHoldings(ctx context.Context, owner solana.Pubkey, items []*asset.Asset) error {
	var mints []solana.Pubkey
	for _, a := range items {
		if a.TokenInfo != nil && (a.Interface == asset.InterfaceFungibleToken || a.Interface == asset.InterfaceFungibleAsset) {
			if k, err := solana.ParsePubkey(a.ID); err == nil {
				mints = append(mints, k)
			}
		}
	}
	held, err := tokenaccounts.Holdings(ctx, d.Store, owner, mints)
	if err != nil {
		return err
	}
	for _, a := range items {
		k, err := solana.ParsePubkey(a.ID)
		if err != nil || a.TokenInfo == nil {
			continue
		}
		h, ok := held[k]
		if !ok {
			continue
		}
		ti := *a.TokenInfo // the item's own copy: documents may be shared
		balance, ata := h.Amount, h.Address.String()
		ti.Balance, ti.AssociatedTokenAddress = &balance, &ata
		a.TokenInfo = &ti
	}
	return nil
}
