package photon

import "github.com/dasch-labs/dasch/server"

// getCompressedTokenBalancesByOwner lists an owner's balance per mint, by
// mint (raw bytes). The list member is token_balances, as Photon spells it.
func getCompressedTokenBalancesByOwner(d Deps) server.Handler {
	return tokenBalances(d, "token_balances")
}
