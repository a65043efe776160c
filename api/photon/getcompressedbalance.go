package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedBalance returns the lamports of the unspent account with the
// given address or hash; 0 when there is none, as Photon answers.
func getCompressedBalance(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		r, err := lookupAccount(ctx, d, c)
		if err != nil {
			return nil, err
		}
		var lamports uint64
		if r.account != nil {
			lamports = r.account.Lamports
		}
		return u64Answer(r.slot, lamports), nil
	}
}
