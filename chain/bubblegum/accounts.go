package bubblegum

// AccountNames are the IDL names of instruction ix's accounts, in order,
// for listing an instruction's accounts by role.
func AccountNames(ix string) []string { return accountNames(ix) }
