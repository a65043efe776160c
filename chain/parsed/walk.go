package parsed

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
)

// op is one decoded instruction: its name, arguments and account names,
// and the lamports or tokens it moves, as indexes into its accounts.
type op struct {
	name     string
	args     map[string]any
	accounts []string // names of the leading accounts; the rest are "remaining"
	native   *nativeMove
	token    *tokenMove
}

type nativeMove struct {
	from, to int
	lamports uint64
}

// tokenMove: an index of -1 is an account the instruction does not name
// (no source for a mint, no destination for a burn).
type tokenMove struct {
	source, dest, authority, mint int
	amount                        uint64
	decimals                      int // -1 when the instruction does not say
}

// decodeFunc decodes one instruction of a program given its data and how
// many accounts it names.
type decodeFunc func(data []byte, nAccounts int) (op, error)

// context is the state of one Parse.
type context struct {
	tx  *solana.Tx
	bal *balances
	// top are the decoded top-level instructions, for the summary.
	top []*op
}

func newContext(tx *solana.Tx, bal *balances) *context {
	return &context{tx: tx, bal: bal, top: make([]*op, len(tx.Instructions))}
}

// walk lists every instruction in execution order and collects transfers.
func (c *context) walk(p *Transaction) {
	j := 0
	one := uint32(1)
	for i := range c.tx.Instructions {
		in, o := c.instruction(&c.tx.Instructions[i], i, nil, &one, p)
		c.top[i] = o
		p.Instructions = append(p.Instructions, in)
		for k := 0; j < len(c.tx.Inner) && c.tx.Inner[j].Outer <= i; j++ {
			if c.tx.Inner[j].Outer < i {
				continue
			}
			ii := &c.tx.Inner[j]
			var sh *uint32
			if ii.StackHeight > 0 {
				h := ii.StackHeight
				sh = &h
			}
			idx := k
			in, _ := c.instruction(&ii.Instruction, i, &idx, sh, p)
			p.Instructions = append(p.Instructions, in)
			k++
		}
	}
}

func (c *context) instruction(ix *solana.Instruction, index int, inner *int, sh *uint32, p *Transaction) (Instruction, *op) {
	keys := c.tx.AccountKeys
	out := Instruction{
		InstructionIndex:      index,
		InnerInstructionIndex: inner,
		StackHeight:           sh,
		ProgramID:             ix.ProgramID.String(),
		RawAccounts:           make([]string, len(ix.Accounts)),
		RawData:               string(b58.AppendLong(nil, ix.Data)),
	}
	for i, a := range ix.Accounts {
		out.RawAccounts[i] = keys[a].String()
	}
	prog, known := programs[ix.ProgramID]
	if !known {
		return out, nil
	}
	out.ProgramName = prog.name
	if prog.decode == nil {
		return out, nil
	}
	o, err := safeDecode(prog.decode, ix.Data, len(ix.Accounts))
	if err != nil {
		out.DecodeError = err.Error()
		return out, nil
	}
	out.InstructionName = o.name
	d := &Decoded{Args: o.args, Accounts: make([]DecodedAccount, len(ix.Accounts))}
	if d.Args == nil {
		d.Args = map[string]any{}
	}
	for i, a := range ix.Accounts {
		name := "remaining"
		if i < len(o.accounts) {
			name = o.accounts[i]
		}
		d.Accounts[i] = DecodedAccount{Name: name, Pubkey: out.RawAccounts[i], IsSigner: c.signer(int(a)), IsWritable: c.tx.Writable(int(a))}
	}
	out.Decoded = d
	c.collect(ix, &o, ix.ProgramID, p)
	return out, &o
}

// safeDecode runs a decoder so that a bug in one cannot fail the
// transaction: a panic becomes the instruction's decode error.
func safeDecode(f decodeFunc, data []byte, n int) (o op, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoder failed: %v", r)
		}
	}()
	return f(data, n)
}

func (c *context) signer(i int) bool {
	if h := c.tx.Header; h != nil {
		return i < int(h.NumRequiredSignatures)
	}
	return i < len(c.tx.Signatures)
}

// key is the account an instruction names at position i, "" if it names
// fewer (-1 included).
func (c *context) key(ix *solana.Instruction, i int) (string, int) {
	if i < 0 || i >= len(ix.Accounts) {
		return "", -1
	}
	k := int(ix.Accounts[i])
	return c.tx.AccountKeys[k].String(), k
}

// collect adds the transfer o makes, if any.
func (c *context) collect(ix *solana.Instruction, o *op, program solana.Pubkey, p *Transaction) {
	if m := o.native; m != nil && m.lamports > 0 {
		from, _ := c.key(ix, m.from)
		to, _ := c.key(ix, m.to)
		p.NativeTransfers = append(p.NativeTransfers, NativeTransfer{FromUserAccount: from, ToUserAccount: to, Amount: m.lamports})
	}
	if m := o.token; m != nil && m.amount > 0 {
		src, si := c.key(ix, m.source)
		dst, di := c.key(ix, m.dest)
		auth, _ := c.key(ix, m.authority)
		mint, _ := c.key(ix, m.mint)
		t := TokenTransfer{FromTokenAccount: src, ToTokenAccount: dst, Mint: mint, ProgramID: program.String()}
		decimals := m.decimals
		for _, side := range []struct {
			i    int
			user *string
		}{{si, &t.FromUserAccount}, {di, &t.ToUserAccount}} {
			if side.i < 0 {
				continue
			}
			if b, ok := c.bal.token(side.i); ok {
				*side.user = b.owner
				if t.Mint == "" {
					t.Mint = b.mint
				}
				if decimals < 0 {
					decimals = b.decimals
				}
			}
		}
		// Without a balance, the authority that signed for the source
		// is its owner (or its delegate, the best the instruction says).
		if t.FromUserAccount == "" && si >= 0 {
			t.FromUserAccount = auth
		}
		if decimals < 0 {
			decimals = 0
		}
		raw := fmt.Sprint(m.amount)
		t.RawTokenAmount = RawTokenAmount{TokenAmount: raw, Decimals: decimals}
		t.TokenAmount = uiAmount(raw, decimals)
		t.TokenStandard = tokenStandard(decimals)
		p.TokenTransfers = append(p.TokenTransfers, t)
	}
}

// tokenStandard is what a transfer alone tells of its token: only that a
// token with decimals is fungible.
func tokenStandard(decimals int) string {
	if decimals > 0 {
		return "Fungible"
	}
	return "UnknownStandard"
}
