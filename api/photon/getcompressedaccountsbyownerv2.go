package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedAccountsByOwnerV2 is getCompressedAccountsByOwner in the V2
// account shape.
func getCompressedAccountsByOwnerV2(d Deps) jsonrpc.Handler { return accountsByOwner(d, true) }
