package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedBalanceByOwner returns the lamports of all unspent accounts
// of an owner.
func getCompressedBalanceByOwner(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p struct {
			Owner *Pubkey `json:"owner"`
		}
		if err := jsonrpc.DecodeParams(c.Params, &p, []string{"owner"}); err != nil {
			return nil, err
		}
		if p.Owner == nil {
			return nil, jsonrpc.MissingField("owner")
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		lamports, err := compressed.OwnerLamports(ctx, d.Store, compressed.Key(*p.Owner), slot)
		if err != nil {
			return nil, err
		}
		return u64Answer(slot, lamports), nil
	}
}
