package solana

// Tx is one transaction with its status, decoded the same way whatever the
// input encoding was. Decoders of higher-level state consume it.
type Tx struct {
	Slot      uint64
	BlockTime *int64 // nil when the source did not know it
	TxIndex   uint32 // position in its block; 0 outside a block

	Signatures []Signature
	// Version is -1 for legacy messages, else the message version.
	Version int
	// Header is nil when the input did not carry it (some JSON fixtures).
	Header          *Header
	RecentBlockhash Hash // zero when the input did not carry it
	// AccountKeys is the full list instructions index into: static keys,
	// then loaded writable, then loaded readonly addresses.
	AccountKeys   []Pubkey
	NumStaticKeys int
	// NumLoadedWritable is how many of the loaded addresses (those after
	// the static keys) are writable: they come first.
	NumLoadedWritable int

	Instructions []Instruction
	Inner        []InnerInstruction // in execution order

	// PostBalances are the lamports of each of AccountKeys after the
	// transaction; nil when the input did not give one per key.
	PostBalances []uint64
	Err          []byte // the error as compact JSON; nil on success
	Fee          uint64
	ComputeUnits *uint64
	LogMessages  []string
	IsVote       bool

	// Raw is the transaction JSON as received, slot and blockTime included.
	Raw []byte
}

// Header is the message header: how many leading keys sign, and how many
// signed and unsigned keys are read-only.
type Header struct {
	NumRequiredSignatures       uint8 `json:"numRequiredSignatures"`
	NumReadonlySignedAccounts   uint8 `json:"numReadonlySignedAccounts"`
	NumReadonlyUnsignedAccounts uint8 `json:"numReadonlyUnsignedAccounts"`
}

// Instruction is a compiled instruction with its program resolved.
type Instruction struct {
	ProgramIndex uint8
	ProgramID    Pubkey
	Accounts     []uint8 // indexes into Tx.AccountKeys
	Data         []byte
}

// InnerInstruction is an instruction invoked by a program (CPI).
type InnerInstruction struct {
	Instruction
	Outer       int    // index of the outer instruction that invoked it
	StackHeight uint32 // 0 when the input did not say
}

// Signature is the first signature, the transaction's id.
func (t *Tx) Signature() Signature { return t.Signatures[0] }

// FeePayer is the first account key.
func (t *Tx) FeePayer() Pubkey { return t.AccountKeys[0] }

// Failed reports whether the transaction failed.
func (t *Tx) Failed() bool { return t.Err != nil }

// ProgramIDs lists every program invoked, outer and inner, once each, in
// execution order.
func (t *Tx) ProgramIDs() []Pubkey {
	out := make([]Pubkey, 0, len(t.Instructions))
	seen := make(map[Pubkey]struct{}, len(t.Instructions))
	add := func(k Pubkey) {
		if _, ok := seen[k]; !ok {
			seen[k] = struct{}{}
			out = append(out, k)
		}
	}
	j := 0
	for i := range t.Instructions {
		add(t.Instructions[i].ProgramID)
		for ; j < len(t.Inner) && t.Inner[j].Outer <= i; j++ {
			add(t.Inner[j].ProgramID)
		}
	}
	for ; j < len(t.Inner); j++ {
		add(t.Inner[j].ProgramID)
	}
	return out
}

// Resolve completes a Tx that a source built itself rather than through
// ParseTx, as resolve does for ParseTx.
func (t *Tx) Resolve() error { return t.resolve() }

// resolve fills program ids and IsVote, and checks every index against the
// key list so consumers can index without bounds worries.
func (t *Tx) resolve() error {
	n := len(t.AccountKeys)
	vote := VoteProgram()
	check := func(in *Instruction) error {
		if int(in.ProgramIndex) >= n {
			return errIndex("program id", int(in.ProgramIndex), n)
		}
		for _, a := range in.Accounts {
			if int(a) >= n {
				return errIndex("account", int(a), n)
			}
		}
		in.ProgramID = t.AccountKeys[in.ProgramIndex]
		if in.ProgramID == vote {
			t.IsVote = true
		}
		return nil
	}
	for i := range t.Instructions {
		if err := check(&t.Instructions[i]); err != nil {
			return errAt("instruction", i, err)
		}
	}
	for i := range t.Inner {
		if err := check(&t.Inner[i].Instruction); err != nil {
			return errAt("inner instruction", i, err)
		}
	}
	return nil
}
