package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getMultipleNewAddressProofsV2 proves up to 50 addresses absent from the
// address trees named with them ([{address, tree}]).
func getMultipleNewAddressProofsV2(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var refs AddressTreeList
		if err := refs.UnmarshalJSON(c.Params); err != nil {
			return nil, err
		}
		return newAddressProofs(ctx, d, refs)
	}
}
