package photon

import "github.com/dasch-labs/dasch/server"

// getCompressedTokenBalancesByOwnerV2 is getCompressedTokenBalancesByOwner
// with the list member named items.
func getCompressedTokenBalancesByOwnerV2(d Deps) server.Handler {
	return tokenBalances(d, "items")
}
