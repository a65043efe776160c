package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getMultipleCompressedAccounts returns the unspent accounts for up to 1000
// hashes or addresses, null for each that has none.
func getMultipleCompressedAccounts(d Deps) jsonrpc.Handler { return multipleAccounts(d, false) }
