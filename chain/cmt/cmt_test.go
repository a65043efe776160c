package cmt_test

import (
	"encoding/hex"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/bubblegum/bubblegumtest"
	"github.com/dasch-labs/dasch/chain/cmt"
	"github.com/dasch-labs/dasch/chain/solana"
)

// TestEmpty checks the empty-subtree hashes against the well-known
// keccak256 of 64 zero bytes, and each level against its children.
func TestEmpty(t *testing.T) {
	empty1 := cmt.Empty(1)
	if got := hex.EncodeToString(empty1[:]); got != "ad3228b676f7d3cd4284a5443f17f1962b36e491b30a40b2405849e597ba5fb5" {
		t.Fatalf("empty level 1 = %s", got)
	}
	if cmt.Empty(0) != (cmt.Node{}) {
		t.Fatal("empty leaf is not 32 zero bytes")
	}
	for l := 1; l <= cmt.MaxDepth; l++ {
		if cmt.Empty(l) != cmt.Parent(cmt.Empty(l-1), cmt.Empty(l-1)) {
			t.Fatalf("level %d", l)
		}
	}
}

func TestIndexes(t *testing.T) {
	tests := []struct {
		depth int
		index uint64
		sib   []uint64
	}{
		{3, 0, []uint64{9, 5, 3}},
		{3, 5, []uint64{12, 7, 2}},
		{3, 7, []uint64{14, 6, 2}},
		{1, 1, []uint64{2}},
	}
	for _, tc := range tests {
		got := cmt.SiblingNodes(tc.depth, tc.index)
		if len(got) != len(tc.sib) {
			t.Fatalf("depth %d index %d: %v, want %v", tc.depth, tc.index, got, tc.sib)
		}
		for i := range got {
			if got[i] != tc.sib[i] || cmt.Level(tc.depth, got[i]) != i {
				t.Fatalf("depth %d index %d: %v, want %v", tc.depth, tc.index, got, tc.sib)
			}
		}
	}
	if cmt.Level(14, 1) != 14 || cmt.Level(14, cmt.LeafNode(14, 9)) != 0 {
		t.Fatal("levels")
	}
}

// TestVerify checks every proof of random trees against their roots, and
// that a proof does not verify another leaf or index.
func TestVerify(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, depth := range []int{1, 3, 5, 14} {
		tr := bubblegumtest.NewTree(bubblegum.Key{byte(depth)}, depth)
		n := min(uint64(1)<<depth, 200)
		for i := uint64(0); i < n; i++ {
			var leaf cmt.Node
			fill(r, &leaf)
			tr.Append(leaf)
		}
		for k := 0; k < 50; k++ { // replacements, some of them emptying a leaf
			var leaf cmt.Node
			if k%5 != 0 {
				fill(r, &leaf)
			}
			tr.Set(r.Uint64N(n), leaf)
		}
		for i := uint64(0); i < n; i++ {
			if err := cmt.Verify(tr.Root(), tr.Leaf(i), i, tr.Proof(i)); err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
			if n > 1 && cmt.Verify(tr.Root(), tr.Leaf(i), (i+1)%n, tr.Proof(i)) == nil && tr.Leaf(i) != tr.Leaf((i+1)%n) {
				t.Fatalf("depth %d: proof of %d verifies at %d", depth, i, (i+1)%n)
			}
		}
	}
}

func fill(r *rand.Rand, n *cmt.Node) {
	for i := 0; i < len(n); i += 8 {
		v := r.Uint64()
		for j := 0; j < 8; j++ {
			n[i+j] = byte(v >> (8 * j))
		}
	}
}

// TestChainPath hashes a real mainnet-format change log: the first mint
// into a fresh depth-14 tree, whose siblings are all empty subtrees, so
// every node of its path is the hash of the one below with an empty
// sibling, up to the root the program logged.
func TestChainPath(t *testing.T) {
	raw, err := os.ReadFile("../bubblegum/testdata/transactions/mint_transfer_burn/5coWPFty37s7haT3SVyMf6PkTaABEnhCRhfDjXeMNS58czHB5dCFPY6VrsZNwxBnqypmNic1LbLp1j5qjbdnZAc8.json")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	cls, err := bubblegum.ChangeLogs(tx)
	if err != nil || len(cls) != 2 {
		t.Fatalf("%d change logs, %v", len(cls), err)
	}
	for _, cl := range cls { // the empty tree (seq 0), then the mint
		leaf := cl.Path[0].Node
		proof := make([]cmt.Node, cl.Depth())
		for l := range proof {
			proof[l] = cmt.Empty(l)
			if want := cmt.RootOf(leaf, 0, proof[:l+1]); cl.Path[l+1].Node != want {
				t.Fatalf("seq %d level %d: logged %s, hashed %s", cl.Seq, l+1, cl.Path[l+1].Node, bubblegum.Key(want))
			}
		}
		if err := cmt.Verify(cl.Path[cl.Depth()].Node, leaf, 0, proof); err != nil {
			t.Fatal(err)
		}
	}
}
