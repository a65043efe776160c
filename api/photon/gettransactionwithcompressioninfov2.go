package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getTransactionWithCompressionInfoV2 returns a transaction with the
// compressed accounts it closed (with their nullifier and tx hash) and
// opened, in Photon's AccountV2 shape.
func getTransactionWithCompressionInfoV2(d Deps) jsonrpc.Handler {
	return transactionWithCompressionInfo(d, true)
}
