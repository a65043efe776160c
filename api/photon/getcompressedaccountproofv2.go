package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedAccountProofV2 returns the proof of the account with the
// given hash; an account still in a V2 output queue is proven by index.
func getCompressedAccountProofV2(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		h, err := decodeHashRequest(c)
		if err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		ps, err := readAccountProofs(ctx, d, []compressed.Key{h}, true)
		if err != nil {
			return nil, err
		}
		if ps[0] == nil {
			return nil, recordNotFound("Account not found")
		}
		return closeContext(appendAccountProofV2(openContext(make([]byte, 0, 2048), slot), ps[0])), nil
	}
}
