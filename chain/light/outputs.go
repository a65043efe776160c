package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// addEvent turns an event's output accounts into OutputAccounts and records
// its output sequence numbers. Inputs are added by the caller, which knows
// more about them on the instruction-data path.
func (p *parser) addEvent(ev *txEvent, pos ixPos) error {
	if len(ev.outputs) != len(ev.outputHashes) || len(ev.outputs) != len(ev.leafIndices) {
		return fmt.Errorf("%s: %d output accounts, %d output hashes and %d leaf indices",
			pos, len(ev.outputs), len(ev.outputHashes), len(ev.leafIndices))
	}
	// The sequence number of a V1 tree belongs to the event's first append
	// to it; each further output in the same tree is one operation later.
	next := make(map[solana.Pubkey]uint64, len(ev.seqs))
	for _, s := range ev.seqs {
		next[s.Tree] = s.Seq
	}
	p.ev.OutputSeqs = append(p.ev.OutputSeqs, ev.seqs...)
	for i, o := range ev.outputs {
		if int(o.treeIndex) >= len(ev.pubkeys) {
			return fmt.Errorf("%s: output %d: tree index %d out of range (%d accounts)", pos, i, o.treeIndex, len(ev.pubkeys))
		}
		key := ev.pubkeys[o.treeIndex]
		out := OutputAccount{
			Hash:        ev.outputHashes[i],
			Tree:        key,
			LeafIndex:   ev.leafIndices[i],
			SlotCreated: p.tx.Slot,
			Owner:       o.account.owner,
			Lamports:    o.account.lamports,
			Address:     o.account.address,
			Data:        o.account.data,
			Signature:   p.ev.Signature,
		}
		info, known := p.trees.Tree(key)
		if !known {
			out.UnknownTree = true
		} else {
			out.Tree, out.Queue, out.TreeType = info.Tree, info.Queue, info.Type
			out.InOutputQueue = info.Type == TreeStateV2
			if info.Type == TreeStateV1 {
				seq, ok := next[key]
				if !ok {
					return fmt.Errorf("%s: output %d: no sequence number for tree %s", pos, i, key)
				}
				out.Seq = &seq
				next[key] = seq + 1
			}
		}
		if out.Owner == CompressedTokenProgram() && out.Data != nil {
			td, isToken, err := DecodeTokenData(out.Data.Discriminator, out.Data.Data)
			if err != nil {
				return fmt.Errorf("%s: output %d (%s): %w", pos, i, out.Hash, err)
			}
			if isToken {
				out.Token = td
			}
		}
		p.ev.Outputs = append(p.ev.Outputs, out)
	}
	return nil
}
