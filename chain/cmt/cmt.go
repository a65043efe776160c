// Package cmt is the hashing of SPL account-compression's concurrent
// Merkle trees, the trees Bubblegum keeps compressed NFTs in: keccak256
// of the two children, a never-written leaf of 32 zero bytes, nodes
// numbered as a heap (root 1, the leaves of a tree of depth d from 2^d).
// It is pure: no I/O.
package cmt

import (
	"fmt"

	"golang.org/x/crypto/sha3"
)

// Node is a 32-byte node hash.
type Node = [32]byte

// MaxDepth is the deepest tree account-compression creates.
const MaxDepth = 30

// Parent is keccak256(left || right).
func Parent(left, right Node) Node {
	h := sha3.NewLegacyKeccak256()
	h.Write(left[:])
	h.Write(right[:])
	var out Node
	h.Sum(out[:0])
	return out
}

// empty holds the empty-subtree hash of every level, computed once.
var empty = func() [MaxDepth + 1]Node {
	var e [MaxDepth + 1]Node
	for l := 1; l <= MaxDepth; l++ {
		e[l] = Parent(e[l-1], e[l-1])
	}
	return e
}()

// Empty is the hash of a subtree of height level whose leaves were never
// written (level 0 is an empty leaf). Levels past MaxDepth panic.
func Empty(level int) Node { return empty[level] }

// LeafNode is the heap index of leaf index in a tree of depth.
func LeafNode(depth int, index uint64) uint64 { return 1<<depth + index }

// Level is the level of heap index node in a tree of depth (0 for leaves,
// depth for the root).
func Level(depth int, node uint64) int {
	l := depth
	for node > 1 {
		node >>= 1
		l--
	}
	return l
}

// SiblingNodes are the heap indexes of the siblings on the path of leaf
// index in a tree of depth, leaf level first: the nodes of its proof.
func SiblingNodes(depth int, index uint64) []uint64 {
	out := make([]uint64, 0, depth)
	for n := LeafNode(depth, index); n > 1; n >>= 1 {
		out = append(out, n^1)
	}
	return out
}

// RootOf hashes leaf up its proof (siblings from the leaf level up) at
// leaf index.
func RootOf(leaf Node, index uint64, proof []Node) Node {
	n := leaf
	for i, s := range proof {
		if index>>i&1 == 0 {
			n = Parent(n, s)
		} else {
			n = Parent(s, n)
		}
	}
	return n
}

// Verify checks that proof places leaf at index under root.
func Verify(root, leaf Node, index uint64, proof []Node) error {
	if got := RootOf(leaf, index, proof); got != root {
		return fmt.Errorf("cmt: leaf %d hashes to root %x, want %x", index, got[:4], root[:4])
	}
	return nil
}
