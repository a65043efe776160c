package light

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// instructionDataEvent rebuilds the event of one Light transaction from the
// system program instruction and the InsertIntoQueues it issued.
func (p *parser) instructionDataEvent(g []instr, pat cpiPattern) error {
	ins, sys := &g[pat.insert], &g[pat.system]
	q, err := decodeInsertIntoQueues(ins.data)
	if err != nil {
		return fmt.Errorf("%s: account-compression InsertIntoQueues: %w", ins.pos, err)
	}
	call, err := decodeSystemCall(sys.data, sys.accounts)
	if err != nil {
		return fmt.Errorf("%s: Light system program: %w", sys.pos, err)
	}
	// Tree indexes in InsertIntoQueues skip its first two accounts (the
	// authority and the registered program PDA).
	queues := ins.accounts[2:]
	treeAt := func(what string, i int, idx uint8) (solana.Pubkey, error) {
		if int(idx) >= len(queues) {
			return solana.Pubkey{}, fmt.Errorf("%s: InsertIntoQueues %s %d: tree index %d out of range (%d accounts)",
				ins.pos, what, i, idx, len(queues))
		}
		return queues[idx], nil
	}

	ev := &txEvent{
		outputs:     append(append([]packedOutput{}, q.cpiOutputs...), call.outputs...),
		leafIndices: q.leafIndex,
		pubkeys:     call.remaining,
	}
	for _, l := range q.leaves {
		ev.outputHashes = append(ev.outputHashes, l.leaf)
	}
	for _, s := range q.outputSeqs {
		if !s.empty() {
			ev.seqs = append(ev.seqs, s.treeSeq())
		}
	}
	if err := p.addEvent(ev, ins.pos); err != nil {
		return err
	}
	p.ev.Compression = true

	// Spent accounts of batched trees go to the tree's input queue; the
	// trees that have one are those with an input sequence number, which
	// is also the queue position of the tree's first nullifier.
	queuePos := make(map[solana.Pubkey]uint64)
	for _, s := range q.inputSeqs {
		if !s.empty() {
			queuePos[s.tree] = s.seq
			p.ev.InputSeqs = append(p.ev.InputSeqs, s.treeSeq())
		}
	}
	for i, n := range q.nullifiers {
		in := InputAccount{Hash: n.accountHash}
		tree, err := treeAt("nullifier", i, n.treeIndex)
		if err != nil {
			return err
		}
		if pos, batched := queuePos[tree]; batched {
			nf, err := nullifierOf(n.accountHash, n.leafIndex, q.txHash)
			if err != nil {
				return fmt.Errorf("%s: nullifier of input %s: %w", ins.pos, n.accountHash, err)
			}
			in.V2 = &BatchedInput{Tree: tree, LeafIndex: n.leafIndex, Nullifier: nf, TxHash: q.txHash, QueueIndex: pos}
			queuePos[tree] = pos + 1
		}
		p.ev.Inputs = append(p.ev.Inputs, in)
	}

	// New addresses of batched address trees get the next positions of the
	// tree's address queue; V1 address trees report no sequence number.
	addrPos := make(map[solana.Pubkey]uint64)
	for _, s := range q.addrSeqs {
		if !s.empty() {
			addrPos[s.tree] = s.seq
			p.ev.AddressSeqs = append(p.ev.AddressSeqs, s.treeSeq())
		}
	}
	for i, a := range q.addresses {
		tree, err := treeAt("address", i, a.treeIndex)
		if err != nil {
			return err
		}
		na := NewAddress{Address: a.address, Tree: tree}
		if pos, ok := addrPos[tree]; ok {
			na.QueueIndex = &pos
			addrPos[tree] = pos + 1
		}
		if _, known := p.trees.Tree(tree); !known {
			na.UnknownTree = true
		}
		p.ev.NewAddresses = append(p.ev.NewAddresses, na)
	}
	return nil
}

func (s rawSeq) treeSeq() TreeSeq {
	return TreeSeq{Tree: s.tree, Queue: s.queue, TreeType: s.treeType, Seq: s.seq}
}
