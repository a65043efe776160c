package solana

// SystemProgram is 11111111111111111111111111111111, the owner of wallets
// and of every account with no lamports: a closed account reads as owned
// by it. A function, so it cannot be reassigned.
func SystemProgram() Pubkey { return Pubkey{} }

// Writable reports whether the transaction may write account key i: a
// writable signer, a writable unsigned static key, or a loaded address
// from a lookup table's writable list. Without a message header (some
// JSON fixtures omit it) every key counts as writable: callers use this to
// decide what to read again, and reading too much is only slower.
func (t *Tx) Writable(i int) bool {
	if i < 0 || i >= len(t.AccountKeys) {
		return false
	}
	if i >= t.NumStaticKeys {
		return i < t.NumStaticKeys+t.NumLoadedWritable
	}
	h := t.Header
	if h == nil {
		return true
	}
	signed := int(h.NumRequiredSignatures)
	if i < signed {
		return i < signed-int(h.NumReadonlySignedAccounts)
	}
	return i < t.NumStaticKeys-int(h.NumReadonlyUnsignedAccounts)
}

// Invokes reports whether any instruction, top level or inner, runs one of
// programs.
func (t *Tx) Invokes(programs map[Pubkey]bool) bool {
	for i := range t.Instructions {
		if programs[t.Instructions[i].ProgramID] {
			return true
		}
	}
	for i := range t.Inner {
		if programs[t.Inner[i].ProgramID] {
			return true
		}
	}
	return false
}
