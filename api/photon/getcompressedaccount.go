package photon

import "github.com/dasch-labs/dasch/server"

// getCompressedAccount returns the unspent account with the given address
// or hash, or null.
func getCompressedAccount(d Deps) server.Handler { return singleAccount(d, false) }
