package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getTransactionWithCompressionInfo returns a transaction with the
// compressed accounts it closed and opened, in Photon's Account shape.
func getTransactionWithCompressionInfo(d Deps) jsonrpc.Handler {
	return transactionWithCompressionInfo(d, false)
}
