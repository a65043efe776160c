package api

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getIndexerSlot answers with the last indexed slot as a bare JSON number,
// as Photon does. It takes no params: absent, null, {} and [] are accepted.
func getIndexerSlot(src SlotSource) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		if err := jsonrpc.DecodeParams(c.Params, nil, nil); err != nil {
			return nil, err
		}
		slot, err := src.IndexedSlot(ctx)
		if err != nil {
			return nil, err
		}
		return slot, nil
	}
}
