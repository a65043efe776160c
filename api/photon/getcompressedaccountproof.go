package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// hashRequest is Photon's HashRequest.
type hashRequest struct {
	Hash *Hash `json:"hash"`
}

func decodeHashRequest(c *jsonrpc.Call) (compressed.Key, error) {
	var p hashRequest
	if err := jsonrpc.DecodeParams(c.Params, &p, []string{"hash"}); err != nil {
		return compressed.Key{}, err
	}
	if p.Hash == nil {
		return compressed.Key{}, jsonrpc.InvalidParams("missing field `hash`")
	}
	return compressed.Key(*p.Hash), nil
}

// getCompressedAccountProof returns the Merkle proof of the account with
// the given hash against its tree's current root.
func getCompressedAccountProof(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		h, err := decodeHashRequest(c)
		if err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		ps, err := readAccountProofs(ctx, d, []compressed.Key{h}, false)
		if err != nil {
			return nil, err
		}
		if err := allFound(ps); err != nil {
			return nil, err
		}
		return closeContext(appendAccountProof(openContext(make([]byte, 0, 2048), slot), ps[0])), nil
	}
}
