package das

import (
	"bytes"
	"context"
	"fmt"

	"github.com/goccy/go-json"

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
			sort:  p.SortBy.sort(), paging: p.paging(), opts: opts, wallet: &owner,
		}
		if opts.ShowFungible {
			// As Helius: the fungibles the owner holds, with its holding.
			r.scope = assetlist.ByOwnerWithFungibles(owner, opts.ShowZeroBalance)
			r.decorate = func(ctx context.Context, items []json.RawMessage) error {
				return d.addHoldings(ctx, owner, items)
			}
		}
		return d.list(ctx, c.Method, r)
	}
}

// addHoldings sets token_info.balance and associated_token_address on
// the fungible items: owner's holding of each. Only items with token info
// are decoded, and only those holding something are encoded again.
func (d Deps) addHoldings(ctx context.Context, owner solana.Pubkey, items []json.RawMessage) error {
	type fungible struct {
		at   int
		mint solana.Pubkey
		a    *asset.Asset
	}
	var found []fungible
	var mints []solana.Pubkey
	for i, raw := range items {
		if !bytes.Contains(raw, []byte(`"token_info":`)) {
			continue
		}
		var a asset.Asset
		if err := json.Unmarshal(raw, &a); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
		if a.TokenInfo == nil || (a.Interface != asset.InterfaceFungibleToken && a.Interface != asset.InterfaceFungibleAsset) {
			continue
		}
		k, err := solana.ParsePubkey(a.ID)
		if err != nil {
			continue
		}
		found = append(found, fungible{i, k, &a})
		mints = append(mints, k)
	}
	if len(found) == 0 {
		return nil
	}
	held, err := tokenaccounts.Holdings(ctx, d.Store, owner, mints)
	if err != nil {
		return err
	}
	for _, f := range found {
		h, ok := held[f.mint]
		if !ok {
			continue
		}
		balance, ata := h.Amount, h.Address.String()
		f.a.TokenInfo.Balance, f.a.TokenInfo.AssociatedTokenAddress = &balance, &ata
		raw, err := json.Marshal(f.a)
		if err != nil {
			return fmt.Errorf("item %d: %w", f.at, err)
		}
		items[f.at] = raw
	}
	return nil
}
