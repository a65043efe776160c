package das

import (
	"context"
	"errors"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type getAssetParams struct {
	ID             *AssetID `json:"id"`
	Options        *Options `json:"options"`
	DisplayOptions *Options `json:"displayOptions"`
}

var getAssetFields = []string{"id", "options", "displayOptions"}

// options merges `options` and its alias `displayOptions`.
func options(o, display *Options) asset.Options { return allOptions(o, display).Options }

// allOptions merges `options` and its alias `displayOptions`, list
// options included.
func allOptions(o, display *Options) Options {
	var out Options
	for _, src := range []*Options{display, o} {
		if src == nil {
			continue
		}
		s := *src
		out.GrandTotal = out.GrandTotal || s.GrandTotal
		out.NativeBalance = out.NativeBalance || s.NativeBalance
		out.ShowUnverifiedCollections = out.ShowUnverifiedCollections || s.ShowUnverifiedCollections
		out.ShowCollectionMetadata = out.ShowCollectionMetadata || s.ShowCollectionMetadata
		out.ShowFungible = out.ShowFungible || s.ShowFungible
		out.ShowInscription = out.ShowInscription || s.ShowInscription
		out.ShowZeroBalance = out.ShowZeroBalance || s.ShowZeroBalance
	}
	return out
}

// getAsset returns one asset by id.
func getAsset(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getAssetParams
		if err := decode(c.Params, &p, getAssetFields); err != nil {
			return nil, err
		}
		if p.ID == nil {
			return nil, invalidParams("Invalid params: missing field `id`")
		}
		// The slot is read first: the state read after it is at least as new.
		slot, src, err := d.source(ctx)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		id := solana.Pubkey(*p.ID)
		assets, err := d.assets(ctx, src, []solana.Pubkey{id}, options(p.Options, p.DisplayOptions), slot)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		r := assets[0]
		switch {
		case errors.Is(r.Err, asset.ErrNotFound):
			return nil, notFound("Asset not found")
		case errors.Is(r.Err, asset.ErrNoSupply):
			return nil, notFound("Asset has no supply")
		case r.Err != nil:
			return nil, failed(d, c.Method, r.Err)
		}
		out, err := r.Answer(slot)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		return out, nil
	}
}
