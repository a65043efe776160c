package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getCompressedAccount returns the unspent account with the given address
// or hash, or null.
func getCompressedAccount(d Deps) jsonrpc.Handler { return singleAccount(d, false) }
