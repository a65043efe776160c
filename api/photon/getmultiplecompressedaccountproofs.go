package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getMultipleCompressedAccountProofs returns the proofs of up to 1000
// account hashes (a bare array), in request order; every hash must be a
// leaf of its tree.
func getMultipleCompressedAccountProofs(d Deps) jsonrpc.Handler {
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
		ps, err := readAccountProofs(ctx, d, hashes, false)
		if err != nil {
			return nil, err
		}
		if err := allFound(ps); err != nil {
			return nil, err
		}
		b := openContext(make([]byte, 0, 64+len(ps)*2048), slot)
		b = append(b, '[')
		for i, p := range ps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAccountProof(b, p)
		}
		return closeContext(append(b, ']')), nil
	}
}
