package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedTokenBalancesByOwner lists an owner's balance per mint, by
// mint (raw bytes). The list member is token_balances, as Photon spells it.
func getCompressedTokenBalancesByOwner(d Deps) jsonrpc.Handler {
	return tokenBalances(d, "token_balances")
}
