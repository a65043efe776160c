package light

import (
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Parse extracts what a transaction did to compressed state. Within each
// outer instruction it reads, like Photon:
//
//   - Light system program calls completed by an account-compression
//     InsertIntoQueues (the instruction-data path of current programs);
//   - failing that, a PublicTransactionEvent the account-compression
//     program logged through the Noop program after one or two native
//     system program transfers (older programs);
//   - forester events: account-compression instructions directly followed
//     by a Noop log of a MerkleTreeEvent.
//
// Failed transactions yield empty Events. Malformed Light data is an error
// naming the instruction; outputs in trees the lookup does not know are
// returned with UnknownTree set.
func Parse(tx *solana.Tx, trees TreeLookup) (*Events, error) {
	if tx == nil || len(tx.Signatures) == 0 {
		return nil, errors.New("light: transaction without signature")
	}
	if trees == nil {
		return nil, errors.New("light: no tree lookup")
	}
	p := &parser{tx: tx, trees: trees, ev: &Events{Signature: tx.Signatures[0], Slot: tx.Slot}}
	if tx.Failed() {
		return p.ev, nil
	}
	groups, err := groupInstructions(tx)
	if err != nil {
		return nil, fmt.Errorf("light: %w", err)
	}
	for _, g := range groups {
		if err := p.group(g); err != nil {
			return nil, fmt.Errorf("light: %w", err)
		}
	}
	return p.ev, nil
}

// parser accumulates the events of one transaction.
type parser struct {
	tx    *solana.Tx
	trees TreeLookup
	ev    *Events
}

func (p *parser) group(g []instr) error {
	kinds := make([]progKind, len(g))
	for i := range g {
		kinds[i] = classify(&g[i])
	}
	if patterns := findPatterns(kinds); len(patterns) > 0 {
		for _, pat := range patterns {
			if err := p.instructionDataEvent(g, pat); err != nil {
				return err
			}
		}
	} else if err := p.noopEvents(g); err != nil {
		return err
	}
	return p.treeEvents(g)
}

// noopEvents finds account-compression instructions followed by one or two
// native system program instructions (rollover fees) and then a Noop log,
// which holds the transaction's PublicTransactionEvent.
func (p *parser) noopEvents(g []instr) error {
	for i := range g {
		if g[i].program != AccountCompressionProgram() {
			continue
		}
		fees := 0
		for j := i + 1; j < len(g); j++ {
			if g[j].program == NoopProgram() {
				if fees >= 1 {
					ev, err := decodeNoopEvent(g[j].data)
					if err != nil {
						return fmt.Errorf("%s: Noop PublicTransactionEvent: %w", g[j].pos, err)
					}
					if err := p.addEvent(ev, g[j].pos); err != nil {
						return err
					}
					p.ev.Compression = true
					for _, h := range ev.inputHashes {
						p.ev.Inputs = append(p.ev.Inputs, InputAccount{Hash: h})
					}
				}
				break
			}
			if g[j].program != solanaSystemProgram() {
				break
			}
			if fees++; fees > 2 {
				break
			}
		}
	}
	return nil
}

// treeEvents reads forester events: an account-compression instruction
// immediately followed by a Noop log.
func (p *parser) treeEvents(g []instr) error {
	for i := 0; i+1 < len(g); i++ {
		if g[i].program != AccountCompressionProgram() || g[i+1].program != NoopProgram() {
			continue
		}
		te, ok, err := decodeTreeEvent(g[i+1].data)
		if err != nil {
			return fmt.Errorf("%s: %w", g[i+1].pos, err)
		}
		if !ok {
			continue
		}
		p.ev.Compression = true
		p.ev.Nullifications = append(p.ev.Nullifications, te.nullifications...)
		p.ev.IndexedUpdates = append(p.ev.IndexedUpdates, te.indexed...)
		if te.batch != nil {
			p.ev.BatchUpdates = append(p.ev.BatchUpdates, *te.batch)
		}
	}
	return nil
}
