package photon

import "github.com/dasch-labs/dasch/server/jsonrpc"

// getMultipleCompressedAccountsV2 is getMultipleCompressedAccounts in the
// V2 account shape.
func getMultipleCompressedAccountsV2(d Deps) jsonrpc.Handler { return multipleAccounts(d, true) }
