package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getMultipleNewAddressProofs proves up to 50 addresses (a bare array)
// absent from the V1 address tree amt1…, in request order.
func getMultipleNewAddressProofs(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		addrs, err := decodeKeyList(c.Params, "Invalid Base58 string")
		if err != nil {
			return nil, err
		}
		refs := make([]compressed.AddressRef, len(addrs))
		for i, a := range addrs {
			refs[i] = compressed.AddressRef{Address: a, Tree: v1AddressTree}
		}
		return newAddressProofs(ctx, d, refs)
	}
}

// newAddressProofs answers both address proof methods.
func newAddressProofs(ctx context.Context, d Deps, refs []compressed.AddressRef) (any, error) {
	slot, err := d.contextSlot(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := readAddressProofs(ctx, d, refs)
	if err != nil {
		return nil, err
	}
	b := openContext(make([]byte, 0, 64+len(ps)*2048), slot)
	b = append(b, '[')
	for i := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendAddressProof(b, &ps[i])
	}
	return closeContext(append(b, ']')), nil
}
