package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedTokenBalancesByOwnerV2 is getCompressedTokenBalancesByOwner
// with the list member named items.
func getCompressedTokenBalancesByOwnerV2(d Deps) jsonrpc.Handler {
	return tokenBalances(d, "items")
}
