package das

import (
	"context"

	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getAssetsByCreatorFields = listFields("creatorAddress", "onlyVerified")

// getAssetsByCreator lists the assets an address is a creator of,
// verified ones only with onlyVerified.
func getAssetsByCreator(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, getAssetsByCreatorFields); err != nil {
			return nil, err
		}
		creator, err := address("creatorAddress", p.CreatorAddress)
		if err != nil {
			return nil, err
		}
		return d.list(ctx, c.Method, listRequest{
			scope: assetlist.ByKey(schema.AssetPathCreator, creator, p.OnlyVerified != nil && *p.OnlyVerified),
			sort:  p.SortBy.sort(), paging: p.paging(), opts: p.options(),
		})
	}
}
