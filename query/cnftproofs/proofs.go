// Package cnftproofs reads the Merkle proofs of compressed NFTs: each
// asset's leaf position from its Bubblegum events, then the leaf, its
// siblings and the root of its tree from bubblegum_nodes, in two reads
// for any number of assets. Every proof is verified before it is
// returned: a proof that does not hash to the root it names is never
// answered.
package cnftproofs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/cmt"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store"
)

// Key is a 32-byte key or hash.
type Key = bubblegum.Key

// Proof is the current proof of a compressed NFT's leaf.
type Proof struct {
	AssetID   solana.Pubkey
	Tree      Key
	LeafIndex uint64
	// NodeIndex is the leaf's heap index, 2^depth + LeafIndex.
	NodeIndex uint64
	Leaf      Key
	// Proof holds the siblings of the leaf's path, leaf level first: the
	// tree's full depth, whatever its canopy.
	Proof []Key
	Root  Key
	// Seq is the tree sequence number of the root.
	Seq uint64
	// DataHash and CreatorHash are those of the asset's leaf as its last
	// event logged it, set only when that leaf is Leaf (not after a burn
	// or a redeem emptied it).
	DataHash, CreatorHash *Key
}

// ErrNotFound is an asset with no leaf in any tree: unknown, not
// compressed, or decompressed.
var ErrNotFound = errors.New("cnftproofs: no leaf")

// ErrIncomplete is a leaf whose stored path does not hash to its tree's
// stored root: some update of the tree was not indexed.
var ErrIncomplete = errors.New("cnftproofs: tree history incomplete")

// Result is the proof of one asset, or why there is none.
type Result struct {
	Proof *Proof
	Err   error // ErrNotFound, or wrapping ErrIncomplete
}

// leafRef is where an asset's leaf is, from its events.
type leafRef struct {
	tree  Key
	index uint64
	depth int
	state *bubblegum.CNFTState
	nodes []uint64 // leaf, siblings from the leaf up, root
}

// Proofs returns the proof of every id, keyed by id.
func Proofs(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]Result, error) {
	out := make(map[solana.Pubkey]Result, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	refs, err := leaves(ctx, s, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := refs[id]; !ok {
			out[id] = Result{Err: ErrNotFound}
		}
	}
	// A proof that does not verify is read once more: an update's nodes may
	// have been only partly visible (parts of one batch commit one by one).
	pending := refs
	for attempt := 0; attempt < 2 && len(pending) > 0; attempt++ {
		nodes, err := readNodes(ctx, s, pending)
		if err != nil {
			return nil, err
		}
		retry := map[solana.Pubkey]*leafRef{}
		for id, ref := range pending {
			p, err := build(id, ref, nodes)
			if err != nil && attempt == 0 {
				retry[id] = ref
				continue
			}
			out[id] = Result{Proof: p, Err: err}
		}
		pending = retry
	}
	return out, nil
}

// leaves reads the events of ids and folds each asset to find its leaf.
func leaves(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]*leafRef, error) {
	cond, params := assetrows.KeyIn("asset_id", ids)
	res, err := s.Query(ctx, `SELECT asset_id, any(payload) FROM bubblegum_events
		WHERE `+cond+` GROUP BY asset_id, seq, signature, ix_outer, ix_inner SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, fmt.Errorf("cnft proofs: events: %w", err)
	}
	events := map[solana.Pubkey][]bubblegum.Event{}
	for i := range res.Rows {
		r := res.Row(i)
		id, payload := solana.Pubkey(r.Key(0)), r.Str(1)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("cnft proofs: events: %w", err)
		}
		ev, err := bubblegum.UnmarshalEvent([]byte(payload))
		if err != nil {
			return nil, fmt.Errorf("cnft proofs: event of %s: %w", id, err)
		}
		events[id] = append(events[id], *ev)
	}
	out := make(map[solana.Pubkey]*leafRef, len(events))
	for id, evs := range events {
		ref, err := leafOf(evs)
		if err != nil {
			return nil, fmt.Errorf("cnft proofs: asset %s: %w", id, err)
		}
		if ref != nil {
			out[id] = ref
		}
	}
	return out, nil
}

// leafOf is the leaf of an asset's events; nil when it is in no tree.
func leafOf(evs []bubblegum.Event) (*leafRef, error) {
	st, err := bubblegum.FoldCNFT(evs)
	if err != nil {
		return nil, err
	}
	if st.Decompressed || st.Tree.IsZero() {
		return nil, nil
	}
	depth := 0
	for i := range evs {
		if cl := evs[i].ChangeLog; cl != nil && cl.Tree == st.Tree {
			depth = cl.Depth()
			break
		}
	}
	if depth < 1 || depth > cmt.MaxDepth || st.LeafID >= 1<<depth {
		return nil, nil
	}
	ref := &leafRef{tree: st.Tree, index: st.LeafID, depth: depth, state: st}
	ref.nodes = append(ref.nodes, cmt.LeafNode(depth, st.LeafID))
	ref.nodes = append(ref.nodes, cmt.SiblingNodes(depth, st.LeafID)...)
	ref.nodes = append(ref.nodes, 1)
	return ref, nil
}

type nodeKey struct {
	tree Key
	node uint64
}

type nodeVal struct {
	hash Key
	seq  uint64
}

// readNodes reads the nodes refs need, newest by seq, in one statement:
// the trees' nodes among the union of the indexes (the key serves it), the
// pairs of another tree dropped by build.
func readNodes(ctx context.Context, s store.Querier, refs map[solana.Pubkey]*leafRef) (map[nodeKey]nodeVal, error) {
	var trees []solana.Pubkey
	var idx []uint64
	for _, ref := range refs {
		if !slices.Contains(trees, solana.Pubkey(ref.tree)) {
			trees = append(trees, solana.Pubkey(ref.tree))
		}
		idx = append(idx, ref.nodes...)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	cond, params := assetrows.KeyIn("tree", trees)
	params["nodes"] = uintArray(idx)
	res, err := s.Query(ctx, `SELECT tree, toUInt64(node_index), argMax(hash, seq), max(seq) FROM bubblegum_nodes
		WHERE `+cond+` AND node_index IN {nodes:Array(UInt32)}
		GROUP BY tree, node_index SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, fmt.Errorf("cnft proofs: nodes: %w", err)
	}
	out := make(map[nodeKey]nodeVal, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		k := nodeKey{tree: r.Key(0), node: r.U64(1)}
		v := nodeVal{hash: r.Key(2), seq: r.U64(3)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("cnft proofs: nodes: %w", err)
		}
		out[k] = v
	}
	return out, nil
}

func uintArray(v []uint64) string {
	b := make([]byte, 0, 8*len(v)+2)
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", n)
	}
	return string(append(b, ']'))
}

// build assembles and verifies the proof of ref from nodes: a node with no
// row was never written and is the empty subtree of its level; the root
// must have been written.
func build(id solana.Pubkey, ref *leafRef, nodes map[nodeKey]nodeVal) (*Proof, error) {
	get := func(n uint64) (Key, bool) {
		v, ok := nodes[nodeKey{ref.tree, n}]
		if !ok {
			return Key(cmt.Empty(cmt.Level(ref.depth, n))), false
		}
		return v.hash, true
	}
	root, ok := nodes[nodeKey{ref.tree, 1}]
	if !ok {
		return nil, fmt.Errorf("%w: tree %s has no root indexed", ErrIncomplete, ref.tree)
	}
	leafNode := ref.nodes[0]
	leaf, _ := get(leafNode)
	p := &Proof{
		AssetID: id, Tree: ref.tree, LeafIndex: ref.index, NodeIndex: leafNode,
		Leaf: leaf, Root: root.hash, Seq: root.seq, Proof: make([]Key, ref.depth),
	}
	sib := make([]cmt.Node, ref.depth)
	for i, n := range ref.nodes[1 : 1+ref.depth] {
		p.Proof[i], _ = get(n)
		sib[i] = p.Proof[i]
	}
	if err := cmt.Verify(root.hash, leaf, ref.index, sib); err != nil {
		return nil, fmt.Errorf("%w: leaf %d of tree %s at seq %d: %v", ErrIncomplete, ref.index, ref.tree, root.seq, err)
	}
	if st := ref.state; st.HasLeaf && !st.LeafHash.IsZero() && st.LeafHash == leaf {
		dh, ch := st.DataHash, st.CreatorHash
		p.DataHash, p.CreatorHash = &dh, &ch
	}
	return p, nil
}
