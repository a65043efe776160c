package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedTokenAccountsByDelegate lists the unspent compressed token accounts delegated to a key by mint, then hash (raw bytes), one page at a time.
func getCompressedTokenAccountsByDelegate(d Deps) jsonrpc.Handler {
	return tokenAccounts(d, "delegate", compressed.TokenAccountsByDelegate, false)
}
