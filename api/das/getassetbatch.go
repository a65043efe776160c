package das

import (
	"context"
	"errors"
	"strconv"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// null answers an id with no asset.
var null = json.RawMessage("null")

// maxBatch is the most ids one getAssetBatch may ask for.
const maxBatch = 1000

type getAssetBatchParams struct {
	IDs            *AssetIDs `json:"ids"`
	Options        *Options  `json:"options"`
	DisplayOptions *Options  `json:"displayOptions"`
}

var getAssetBatchFields = []string{"ids", "options", "displayOptions"}

// getAssetBatch returns the assets of ids in request order, null for ids
// with no asset. Duplicate ids are answered at each position they occur.
func getAssetBatch(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getAssetBatchParams
		if err := decode(c.Params, &p, getAssetBatchFields); err != nil {
			return nil, err
		}
		if p.IDs == nil {
			return nil, invalidParams("Invalid params: missing field `ids`")
		}
		if len(*p.IDs) > maxBatch {
			return nil, invalidParams("Invalid params: `ids` has " + strconv.Itoa(len(*p.IDs)) +
				" ids, at most " + strconv.Itoa(maxBatch))
		}
		slot, src, err := d.source(ctx)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		ids := make([]solana.Pubkey, len(*p.IDs))
		for i, id := range *p.IDs {
			ids[i] = solana.Pubkey(id)
		}
		assets, err := d.assets(ctx, src, ids, options(p.Options, p.DisplayOptions), slot)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		out := make([]json.RawMessage, len(ids))
		for i, r := range assets {
			out[i] = null
			switch {
			case r.Err == nil:
				a, err := r.Answer(slot)
				if err != nil {
					return nil, failed(d, c.Method, err)
				}
				out[i] = a
			case errors.Is(r.Err, asset.ErrNotFound), errors.Is(r.Err, asset.ErrNoSupply):
			default:
				return nil, failed(d, c.Method, r.Err)
			}
		}
		return json.RawMessage(appendItems(nil, out, "", 0)), nil
	}
}
