package das

import (
	"context"

	"github.com/dasch-labs/dasch/query/assetlist"
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
		return d.list(ctx, c.Method, listRequest{
			scope: assetlist.ByKey(schema.AssetPathOwner, owner, false),
			sort:  p.SortBy.sort(), paging: p.paging(), opts: p.options(),
		})
	}
}
