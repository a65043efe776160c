package das

import (
	"context"

	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getAssetsByGroupFields = listFields("groupKey", "groupValue")

// getAssetsByGroup lists the assets of a group (a collection), verified
// members only unless showUnverifiedCollections.
func getAssetsByGroup(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, getAssetsByGroupFields); err != nil {
			return nil, err
		}
		if p.GroupKey == nil {
			return nil, invalidParams("Invalid params: missing field `groupKey`")
		}
		value, err := address("groupValue", p.GroupValue)
		if err != nil {
			return nil, err
		}
		opts := p.options()
		return d.list(ctx, c.Method, listRequest{
			scope: assetlist.ByKey(schema.AssetPathGroup+*p.GroupKey, value, !opts.ShowUnverifiedCollections),
			sort:  p.SortBy.sort(), paging: p.paging(), opts: opts,
		})
	}
}
