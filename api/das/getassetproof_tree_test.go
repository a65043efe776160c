package das

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/bubblegum/bubblegumtest"
	"github.com/dasch-labs/dasch/chain/cmt"
)

// synthTx is one synthetic transaction file and its slot.
type synthTx struct {
	slot uint64
	path string
}

// synthLeaf is the expected state of one leaf of a synthetic tree.
type synthLeaf struct {
	id                    bubblegum.Key
	owner                 bubblegum.Key
	dataHash, creatorHash bubblegum.Key
	burnt                 bool
}

// buildSynthTree mints leaves into a tree of depth and then applies
// updates transfers and burns to random leaves, writing one transaction
// file each into dir (slots rising with seq, as on chain). It returns the
// tree as it ends, the leaves, the files, and the root after every seq.
func buildSynthTree(t *testing.T, r *rand.Rand, dir string, depth, leaves, updates int) (*bubblegumtest.Tree, []synthLeaf, []synthTx, map[string]bool) {
	t.Helper()
	hash := func() (h bubblegum.Key) {
		for i := 0; i < 32; i += 8 {
			v := r.Uint64()
			for j := 0; j < 8; j++ {
				h[i+j] = byte(v >> (8 * j))
			}
		}
		return h
	}
	treeID := hash()
	tree := bubblegumtest.NewTree(treeID, depth)
	roots := map[string]bool{}
	var files []synthTx
	write := func(ix bubblegumtest.Ix) {
		seq := ix.Change.Seq
		slot := 5000 + seq
		raw, err := bubblegumtest.TxJSON(slot, bubblegumtest.Sig(uint64(depth)<<32|seq), ix)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strconv.FormatUint(seq, 10)+".json")
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, synthTx{slot: slot, path: p})
		root := tree.Root()
		roots[bubblegum.Key(root).String()] = true
	}
	out := make([]synthLeaf, leaves)
	leafEvent := func(i int, l *synthLeaf, leafHash bubblegum.Key) bubblegum.Leaf {
		return bubblegum.Leaf{Version: 1, ID: l.id, Owner: l.owner, Delegate: l.owner, Nonce: uint64(i),
			DataHash: l.dataHash, CreatorHash: l.creatorHash, LeafHash: leafHash}
	}
	for i := range out {
		id, err := bubblegum.AssetID(treeID, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = synthLeaf{id: id, owner: hash(), dataHash: hash(), creatorHash: hash()}
		leaf := hash()
		cl := tree.Append(leaf)
		write(bubblegumtest.Ix{Name: bubblegum.IxMintV1, Change: cl, Leaf: leafEvent(i, &out[i], leaf)})
	}
	for k := 0; k < updates; k++ {
		i := r.IntN(leaves)
		l := &out[i]
		if l.burnt {
			continue
		}
		if r.IntN(5) == 0 {
			l.burnt = true
			cl := tree.Set(uint64(i), cmt.Node{})
			write(bubblegumtest.Ix{Name: bubblegum.IxBurn, Change: cl, Leaf: leafEvent(i, l, bubblegum.Key{})})
			continue
		}
		l.owner = hash()
		leaf := hash()
		cl := tree.Set(uint64(i), leaf)
		write(bubblegumtest.Ix{Name: bubblegum.IxTransfer, Change: cl, Leaf: leafEvent(i, l, leaf)})
	}
	return tree, out, files, roots
}

// TestGetAssetProofSyntheticTrees builds concurrent Merkle trees of depth
// 3, 5 and 14 (the small ones filled completely, so past half full),
// applies mints, transfers and burns, and indexes the transactions in a
// random order over several runs. While only part is indexed, every proof
// answered must verify against a root the tree really had; once all is
// indexed, every proof must be the tree's: its root, its leaf, its
// siblings, and the asset's current data and creator hashes.
func TestGetAssetProofSyntheticTrees(t *testing.T) {
	tests := []struct{ depth, leaves, updates int }{
		{3, 8, 30},
		{5, 32, 60},
		{14, 120, 60},
	}
	for _, tc := range tests {
		t.Run("depth "+strconv.Itoa(tc.depth), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.depth), 11))
			tree, leaves, files, roots := buildSynthTree(t, r, t.TempDir(), tc.depth, tc.leaves, tc.updates)
			r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
			// Four runs, each of a random quarter in slot order.
			var groups [][]string
			for q := 0; q < 4; q++ {
				part := slices.Clone(files[q*len(files)/4 : (q+1)*len(files)/4])
				slices.SortFunc(part, func(a, b synthTx) int { return int(a.slot) - int(b.slot) })
				var g []string
				for _, f := range part {
					g = append(g, f.path)
				}
				groups = append(groups, g)
			}
			ids := make([]string, len(leaves))
			for i, l := range leaves {
				ids[i] = `"` + l.id.String() + `"`
			}
			req := `{"ids":[` + strings.Join(ids, ",") + `]}`
			e := newEnv(t)
			for q, g := range groups {
				e.indexPaths(g)
				a := e.call("getAssetProofs", req)
				if a.Status != 200 {
					t.Fatalf("run %d: HTTP %d %+v", q, a.Status, a.Error)
				}
				var got map[string]json.RawMessage
				if err := json.Unmarshal(a.Result, &got); err != nil {
					t.Fatal(err)
				}
				answered := 0
				for i, l := range leaves {
					raw, ok := got[l.id.String()]
					if !ok {
						t.Fatalf("run %d: no member for leaf %d", q, i)
					}
					if string(raw) == "null" {
						if q == len(groups)-1 {
							t.Fatalf("all indexed: leaf %d has no proof", i)
						}
						continue
					}
					answered++
					p := decodeProof(t, raw)
					if !roots[p.Root] {
						t.Fatalf("run %d: leaf %d proven against %s, never a root of the tree", q, i, p.Root)
					}
					if q < len(groups)-1 {
						continue
					}
					checkFinalProof(t, tree, i, &leaves[i], p)
				}
				t.Logf("run %d: %d of %d leaves proven", q, answered, len(leaves))
			}
		})
	}
}

// checkFinalProof compares the proof of leaf i with the tree's own.
func checkFinalProof(t *testing.T, tree *bubblegumtest.Tree, i int, l *synthLeaf, p *AssetProof) {
	t.Helper()
	if p.Root != bubblegum.Key(tree.Root()).String() || p.Leaf != bubblegum.Key(tree.Leaf(uint64(i))).String() ||
		p.TreeID != tree.ID.String() || p.NodeIndex != cmt.LeafNode(tree.Depth, uint64(i)) {
		t.Fatalf("leaf %d: root %s leaf %s tree %s node %d, tree has %s %s %s %d", i, p.Root, p.Leaf, p.TreeID, p.NodeIndex,
			bubblegum.Key(tree.Root()), bubblegum.Key(tree.Leaf(uint64(i))), tree.ID, cmt.LeafNode(tree.Depth, uint64(i)))
	}
	for j, n := range tree.Proof(uint64(i)) {
		if p.Proof[j] != bubblegum.Key(n).String() {
			t.Fatalf("leaf %d: proof[%d] = %s, tree has %s", i, j, p.Proof[j], bubblegum.Key(n))
		}
	}
	switch {
	case l.burnt && (p.DataHash != nil || p.CreatorHash != nil):
		t.Fatalf("burnt leaf %d has data hash %v", i, *p.DataHash)
	case !l.burnt && (p.DataHash == nil || *p.DataHash != l.dataHash.String() || p.CreatorHash == nil || *p.CreatorHash != l.creatorHash.String()):
		t.Fatalf("leaf %d: data hash %v creator hash %v, want %s %s", i, p.DataHash, p.CreatorHash, l.dataHash, l.creatorHash)
	}
}
