package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressionSignaturesForOwner lists the transactions that created or
// spent an account of an owner, newest first.
func getCompressionSignaturesForOwner(d Deps) jsonrpc.Handler {
	return keyedSignatures(d, "owner", compressed.SignaturesForOwner)
}
