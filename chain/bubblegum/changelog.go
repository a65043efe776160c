package bubblegum

import (
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// maxTreeDepth is the deepest tree account-compression creates.
const maxTreeDepth = 30

// ChangeLogs returns every account-compression change-log event that the
// noop program carries for the Bubblegum instructions of tx, tree-level
// ones included, in execution order: each is the new path of one tree
// update, from which the tree's current nodes are kept. Unlike Parse it
// decodes nothing else, so a tree update whose instruction data dasch does
// not know still counts. A change log whose path does not fit its index
// is an error.
func ChangeLogs(tx *solana.Tx) ([]ChangeLog, error) {
	if tx == nil {
		return nil, errors.New("bubblegum: nil transaction")
	}
	if tx.Failed() {
		return nil, nil
	}
	var out []ChangeLog
	for _, ref := range bubblegumInstructions(tx) {
		for _, l := range ref.logs {
			if !isNoop(l.ProgramID) || len(l.Data) == 0 || l.Data[0] != eventChangeLog {
				continue
			}
			r := newReader(l.Data[1:])
			cl, err := r.changeLog()
			if err == nil {
				err = checkPath(cl)
			}
			if err != nil {
				return nil, fmt.Errorf("bubblegum: tx %s instruction %d.%d changelog: %w", tx.Signature(), ref.outer, ref.inner, err)
			}
			out = append(out, *cl)
		}
	}
	return out, nil
}

// checkPath checks that a change log's path is the leaf-to-root path of
// its index: node i of a tree of depth d has heap index 2^(d-i) + index>>i,
// and the root, last, is 1. Readers rely on it to place every node.
func checkPath(cl *ChangeLog) error {
	depth := len(cl.Path) - 1
	if depth < 1 || depth > maxTreeDepth {
		return fmt.Errorf("path of %d nodes, want 2 to %d", len(cl.Path), maxTreeDepth+1)
	}
	if uint64(cl.Index) >= 1<<depth {
		return fmt.Errorf("leaf index %d past a tree of depth %d", cl.Index, depth)
	}
	for lvl, n := range cl.Path {
		want := uint64(1)<<(depth-lvl) + uint64(cl.Index)>>lvl
		if uint64(n.Index) != want {
			return fmt.Errorf("path node %d has index %d, want %d for leaf %d", lvl, n.Index, want, cl.Index)
		}
	}
	return nil
}

// Depth is the depth of the change log's tree: its path holds one node
// per level below the root, then the root.
func (cl *ChangeLog) Depth() int { return len(cl.Path) - 1 }
