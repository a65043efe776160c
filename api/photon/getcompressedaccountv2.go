package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedAccountV2 is getCompressedAccount in the V2 account shape.
func getCompressedAccountV2(d Deps) jsonrpc.Handler { return singleAccount(d, true) }
