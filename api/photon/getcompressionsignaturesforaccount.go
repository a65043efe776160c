package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressionSignaturesForAccount lists the (at most two) transactions
// that created and spent the account with a hash; not paginated.
func getCompressionSignaturesForAccount(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p struct {
			Hash *Hash `json:"hash"`
		}
		if err := jsonrpc.DecodeParams(c.Params, &p, []string{"hash"}); err != nil {
			return nil, err
		}
		if p.Hash == nil {
			return nil, jsonrpc.MissingField("hash")
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		items, err := compressed.SignaturesForAccountAt(ctx, d.Store, compressed.Key(*p.Hash), &slot)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, recordNotFound("Account not found")
		}
		return encodeSignatures(slot, items, nil), nil
	}
}
