package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedTokenAccountsByDelegateV2 lists the unspent compressed token accounts delegated to a key, in the V2 account shape by mint, then hash (raw bytes), one page at a time.
func getCompressedTokenAccountsByDelegateV2(d Deps) jsonrpc.Handler {
	return tokenAccounts(d, "delegate", compressed.TokenAccountsByDelegate, true)
}
