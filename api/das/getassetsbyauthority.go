package das

import (
	"context"

	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getAssetsByAuthorityFields = listFields("authorityAddress")

// getAssetsByAuthority lists the assets an address is an authority of.
func getAssetsByAuthority(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, getAssetsByAuthorityFields); err != nil {
			return nil, err
		}
		authority, err := address("authorityAddress", p.AuthorityAddress)
		if err != nil {
			return nil, err
		}
		return d.list(ctx, c.Method, listRequest{
			scope: assetlist.ByKey(schema.AssetPathAuthority, authority, false),
			sort:  p.SortBy.sort(), paging: p.paging(), opts: p.options(),
		})
	}
}
