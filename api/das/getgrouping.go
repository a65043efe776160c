package das

import (
	"context"

	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

var getGroupingFields = []string{"groupKey", "groupValue"}

// grouping is getGrouping's answer: how many assets a group holds.
type grouping struct {
	GroupKey  string `json:"group_key"`
	GroupName string `json:"group_name"`
	GroupSize uint64 `json:"group_size"`
}

// getGrouping counts the verified members of a group, as the reference.
func getGrouping(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p listParams
		if err := decode(c.Params, &p, getGroupingFields); err != nil {
			return nil, err
		}
		if p.GroupKey == nil {
			return nil, invalidParams("Invalid params: missing field `groupKey`")
		}
		value, err := address("groupValue", p.GroupValue)
		if err != nil {
			return nil, err
		}
		n, err := assetlist.Count(ctx, d.Store, assetlist.ByKey(schema.AssetPathGroup+*p.GroupKey, value, true))
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		return grouping{GroupKey: *p.GroupKey, GroupName: *p.GroupValue, GroupSize: n}, nil
	}
}
