// Package bubblegumtest builds what tests index as Bubblegum traffic: an
// in-memory concurrent Merkle tree that records the change log of every
// update, and getTransaction JSON of mint_v1, transfer and burn
// instructions carrying those change logs and leaf events.
package bubblegumtest

import (
	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/cmt"
)

// Tree is a concurrent Merkle tree held whole in memory: the reference an
// index's proofs are checked against.
type Tree struct {
	ID    bubblegum.Key
	Depth int
	// Seq is the sequence number of the last update (0 before any).
	Seq uint64
	// Next is the index the next Append writes.
	Next  uint64
	nodes map[uint64]cmt.Node // heap index → hash; absent is empty
}

// NewTree is an empty tree of depth.
func NewTree(id bubblegum.Key, depth int) *Tree {
	return &Tree{ID: id, Depth: depth, nodes: map[uint64]cmt.Node{}}
}

// Node is the current hash of heap index n.
func (t *Tree) Node(n uint64) cmt.Node {
	if h, ok := t.nodes[n]; ok {
		return h
	}
	return cmt.Empty(cmt.Level(t.Depth, n))
}

// Root is the current root.
func (t *Tree) Root() cmt.Node { return t.Node(1) }

// Leaf is the current hash of leaf index.
func (t *Tree) Leaf(index uint64) cmt.Node { return t.Node(cmt.LeafNode(t.Depth, index)) }

// Proof is the current proof of leaf index, leaf level first.
func (t *Tree) Proof(index uint64) []cmt.Node {
	sib := cmt.SiblingNodes(t.Depth, index)
	out := make([]cmt.Node, len(sib))
	for i, n := range sib {
		out[i] = t.Node(n)
	}
	return out
}

// Set writes leaf at index and returns the change log account-compression
// emits for it: the new path from the leaf to the root with heap indexes,
// and the new sequence number.
func (t *Tree) Set(index uint64, leaf cmt.Node) bubblegum.ChangeLog {
	t.Seq++
	n := cmt.LeafNode(t.Depth, index)
	t.nodes[n] = leaf
	cl := bubblegum.ChangeLog{Tree: t.ID, Seq: t.Seq, Index: uint32(index)}
	cl.Path = append(cl.Path, bubblegum.PathNode{Node: leaf, Index: uint32(n)})
	for h := leaf; n > 1; n >>= 1 {
		if n&1 == 0 {
			h = cmt.Parent(h, t.Node(n+1))
		} else {
			h = cmt.Parent(t.Node(n-1), h)
		}
		t.nodes[n>>1] = h
		cl.Path = append(cl.Path, bubblegum.PathNode{Node: h, Index: uint32(n >> 1)})
	}
	if index >= t.Next {
		t.Next = index + 1
	}
	return cl
}

// Append writes leaf at the next index.
func (t *Tree) Append(leaf cmt.Node) bubblegum.ChangeLog { return t.Set(t.Next, leaf) }
