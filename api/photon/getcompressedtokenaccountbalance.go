package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedTokenAccountBalance returns {"amount": n} for the unspent
// token account with the given address or hash; 0 when there is none.
func getCompressedTokenAccountBalance(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		r, err := lookupAccount(ctx, d, c)
		if err != nil {
			return nil, err
		}
		var amount uint64
		if r.account != nil && r.account.IsToken {
			amount = r.account.Amount
		}
		b := openContext(make([]byte, 0, 64), r.slot)
		b = append(b, `{"amount":`...)
		b = appendU64(b, amount)
		return closeContext(append(b, '}')), nil
	}
}
