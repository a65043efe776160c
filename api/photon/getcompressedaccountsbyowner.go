package photon

import "github.com/dasch-labs/dasch/server"

// getCompressedAccountsByOwner lists an owner's unspent accounts by hash,
// optionally filtered by memcmp and cut by dataSlice.
func getCompressedAccountsByOwner(d Deps) server.Handler { return accountsByOwner(d, false) }
