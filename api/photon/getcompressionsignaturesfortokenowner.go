package photon

import (
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getCompressionSignaturesForTokenOwner lists the transactions that created
// or spent a token account of an owner, newest first.
func getCompressionSignaturesForTokenOwner(d Deps) jsonrpc.Handler {
	return keyedSignatures(d, "owner", compressed.SignaturesForTokenOwner)
}
