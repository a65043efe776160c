package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressedTokenAccountsByOwnerV2 lists the unspent compressed token accounts of an owner, in the V2 account shape by mint, then hash (raw bytes), one page at a time.
func getCompressedTokenAccountsByOwnerV2(d Deps) jsonrpc.Handler {
	return tokenAccounts(d, "owner", compressed.TokenAccountsByOwner, true)
}
