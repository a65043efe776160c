package photon

import "github.com/dasch-labs/dasch/server"

// getMultipleCompressedAccountsV2 is getMultipleCompressedAccounts in the
// V2 account shape.
func getMultipleCompressedAccountsV2(d Deps) server.Handler { return multipleAccounts(d, true) }
