package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedTokenAccountsByOwner lists the unspent compressed token accounts of an owner by mint, then hash (raw bytes), one page at a time.
func getCompressedTokenAccountsByOwner(d Deps) jsonrpc.Handler {
	return tokenAccounts(d, "owner", compressed.TokenAccountsByOwner, false)
}
