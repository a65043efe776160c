package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressionSignaturesForAddress lists the transactions that created or
// spent an account holding an address, newest first.
func getCompressionSignaturesForAddress(d Deps) jsonrpc.Handler {
	return keyedSignatures(d, "address", compressed.SignaturesForAddress)
}
