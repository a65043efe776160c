package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getMultipleCompressedAccountProofsV2 returns the V2 proofs of up to 1000
// account hashes, in request order; accounts still in a V2 output queue
// are proven by index.
func getMultipleCompressedAccountProofsV2(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		hashes, err := decodeKeyList(c.Params, "Invalid hash input")
		if err != nil {
			return nil, err
		}
		if err := checkHashCount(len(hashes)); err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		ps, err := readAccountProofs(ctx, d, hashes, true)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p == nil {
				return nil, recordNotFound("Some accounts not found")
			}
		}
		b := openContext(make([]byte, 0, 64+len(ps)*2048), slot)
		b = append(b, '[')
		for i, p := range ps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAccountProofV2(b, p)
		}
		return closeContext(append(b, ']')), nil
	}
}
