package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// instr is an instruction with its accounts resolved to pubkeys.
type instr struct {
	pos      ixPos
	program  solana.Pubkey
	data     []byte
	accounts []solana.Pubkey
}

// ixPos names an instruction in errors: an outer instruction, or the n-th
// instruction its CPIs ran (inner is -1 for the outer one).
type ixPos struct {
	outer, inner int
}

func (p ixPos) String() string {
	if p.inner < 0 {
		return fmt.Sprintf("instruction %d", p.outer)
	}
	return fmt.Sprintf("instruction %d inner %d", p.outer, p.inner)
}

// groupInstructions returns, per outer instruction, that instruction
// followed by everything it invoked, in execution order. Light events never
// span outer instructions, so each group is searched on its own.
func groupInstructions(tx *solana.Tx) ([][]instr, error) {
	keys := tx.AccountKeys
	resolve := func(in *solana.Instruction, pos ixPos) (instr, error) {
		out := instr{pos: pos, program: in.ProgramID, data: in.Data, accounts: make([]solana.Pubkey, len(in.Accounts))}
		for i, a := range in.Accounts {
			if int(a) >= len(keys) {
				return instr{}, fmt.Errorf("%s: account index %d out of range (%d keys)", pos, a, len(keys))
			}
			out.accounts[i] = keys[a]
		}
		return out, nil
	}
	groups := make([][]instr, len(tx.Instructions))
	for i := range tx.Instructions {
		in, err := resolve(&tx.Instructions[i], ixPos{outer: i, inner: -1})
		if err != nil {
			return nil, err
		}
		groups[i] = append(groups[i], in)
	}
	seen := make([]int, len(tx.Instructions))
	for i := range tx.Inner {
		o := tx.Inner[i].Outer
		if o < 0 || o >= len(groups) {
			return nil, fmt.Errorf("inner instruction %d: outer index %d out of range (%d instructions)", i, o, len(groups))
		}
		in, err := resolve(&tx.Inner[i].Instruction, ixPos{outer: o, inner: seen[o]})
		if err != nil {
			return nil, err
		}
		seen[o]++
		groups[o] = append(groups[o], in)
	}
	return groups, nil
}
