package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server"
)

// getCompressedBalance returns the lamports of the unspent account with the
// given address or hash; 0 when there is none, as Photon answers.
func getCompressedBalance(d Deps) server.Handler {
	return func(ctx context.Context, c *server.Call) (any, error) {
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
