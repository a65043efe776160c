package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedAccountsByOwner lists an owner's unspent accounts in Photon's order,
// optionally filtered by memcmp and cut by dataSlice.
func getCompressedAccountsByOwner(d Deps) jsonrpc.Handler { return accountsByOwner(d, false) }
