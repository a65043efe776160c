package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server"
)

// getCompressionSignaturesForAddress lists the transactions that created or
// spent an account holding an address, newest first.
func getCompressionSignaturesForAddress(d Deps) server.Handler {
	return keyedSignatures(d, "address", compressed.SignaturesForAddress)
}
