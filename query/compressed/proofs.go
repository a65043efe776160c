package compressed

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/store"
)

// Tree is the metadata of a Merkle tree, as seeded into state_trees.
type Tree struct {
	Tree, Queue         Key
	Type                uint8 // light.TreeType codes
	Height              uint32
	RootHistoryCapacity uint64
}

// Trees returns the metadata of the known trees among keys.
func Trees(ctx context.Context, s store.Querier, keys []Key) (map[Key]Tree, error) {
	out := map[Key]Tree{}
	if len(keys) == 0 {
		return out, nil
	}
	res, err := s.Query(ctx, `SELECT tree, queue, tree_type, height, root_history_capacity FROM state_trees FINAL
		WHERE tree IN `+keySet("keys"), store.Params{"keys": keysParam(keys)})
	if err != nil {
		return nil, fmt.Errorf("tree metadata: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		t := Tree{Tree: r.Key(0), Queue: r.Key(1), Type: r.U8(2), Height: r.U32(3), RootHistoryCapacity: r.U64(4)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("tree metadata: %w", err)
		}
		out[t.Tree] = t
	}
	return out, nil
}

// MerkleProof is the path of one leaf: its siblings from the leaf level
// up, the root, and the sequence number of the newest leaf under the root.
type MerkleProof struct {
	Tree      Key
	LeafIndex uint64
	Leaf      Key // the stored leaf; zero when never written
	Proof     []Key
	Root      Key
	RootSeq   uint64
}

// LeafRef names a leaf of a tree of the given height.
type LeafRef struct {
	Tree      Key
	Height    uint32
	LeafIndex uint64
}

// sqlProofNodes reads candidate nodes of several trees in one go: the
// primary key (tree, node_idx) serves it, and pairs of another tree are
// dropped by the caller.
const sqlProofNodes = `SELECT tree, node_idx, hash, seq FROM state_tree_nodes FINAL
WHERE tree IN ` + `(SELECT toFixedString(substring({trees:String}, number * 32 + 1, 32), 32) FROM numbers(intDiv(length({trees:String}), 32)))` + `
AND node_idx IN {ids:Array(UInt64)}`

type nodeKey struct {
	tree Key
	idx  uint64
}

type nodeVal struct {
	hash Key
	seq  uint64
}

// LeafProofs reads the proofs of refs, in order, with one query: a node
// never written is the zero hash of its level.
func LeafProofs(ctx context.Context, s store.Querier, refs []LeafRef) ([]MerkleProof, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	var trees []Key
	seenTree := map[Key]bool{}
	ids := map[uint64]bool{1: true}
	for _, r := range refs {
		if r.Height == 0 || r.Height > light.MaxTreeHeight || r.LeafIndex >= 1<<r.Height {
			return nil, fmt.Errorf("leaf %d of tree %x: outside a tree of height %d", r.LeafIndex, r.Tree[:4], r.Height)
		}
		if !seenTree[r.Tree] {
			seenTree[r.Tree] = true
			trees = append(trees, r.Tree)
		}
		n := uint64(1)<<r.Height + r.LeafIndex
		ids[n] = true
		for ; n > 1; n >>= 1 {
			ids[n^1] = true
		}
	}
	var b strings.Builder
	b.WriteByte('[')
	first := true
	for id := range ids {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.FormatUint(id, 10))
	}
	b.WriteByte(']')
	res, err := s.Query(ctx, sqlProofNodes, store.Params{"trees": keysParam(trees), "ids": b.String()})
	if err != nil {
		return nil, fmt.Errorf("proof nodes: %w", err)
	}
	nodes := make(map[nodeKey]nodeVal, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		k := nodeKey{tree: r.Key(0), idx: r.U64(1)}
		v := nodeVal{hash: r.Key(2), seq: r.U64(3)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("proof nodes: %w", err)
		}
		nodes[k] = v
	}
	out := make([]MerkleProof, len(refs))
	for i, r := range refs {
		p := MerkleProof{Tree: r.Tree, LeafIndex: r.LeafIndex, Proof: make([]Key, 0, r.Height)}
		n := uint64(1)<<r.Height + r.LeafIndex
		if v, ok := nodes[nodeKey{r.Tree, n}]; ok {
			p.Leaf = v.hash
		}
		for level := 0; n > 1; level, n = level+1, n>>1 {
			sib, ok := nodes[nodeKey{r.Tree, n ^ 1}]
			if !ok {
				sib.hash = Key(light.ZeroHash(level))
			}
			p.Proof = append(p.Proof, sib.hash)
		}
		if root, ok := nodes[nodeKey{r.Tree, 1}]; ok {
			p.Root, p.RootSeq = root.hash, root.seq
		} else {
			p.Root = Key(light.ZeroHash(int(r.Height)))
		}
		out[i] = p
	}
	return out, nil
}

// AccountLeaf is where an account's hash was appended.
type AccountLeaf struct {
	Hash, Tree, Queue Key
	TreeType          uint8
	LeafIndex         uint64
	InOutputQueue     bool
	Spent             bool
}

// AccountLeaves returns the accounts among hashes, spent or not, keyed by
// hash.
func AccountLeaves(ctx context.Context, s store.Querier, hashes []Key) (map[Key]AccountLeaf, error) {
	out := map[Key]AccountLeaf{}
	if len(hashes) == 0 {
		return out, nil
	}
	res, err := s.Query(ctx, `SELECT hash, tree, queue, tree_type, leaf_index, in_output_queue,
			hash IN (SELECT hash FROM compressed_spent WHERE hash IN `+keySet("keys")+`) AS spent
		FROM compressed_accounts WHERE hash IN `+keySet("keys")+` LIMIT 1 BY hash`,
		store.Params{"keys": keysParam(hashes)})
	if err != nil {
		return nil, fmt.Errorf("account leaves: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		a := AccountLeaf{
			Hash: r.Key(0), Tree: r.Key(1), Queue: r.Key(2), TreeType: r.U8(3), LeafIndex: r.U64(4),
			InOutputQueue: r.Bool(5),
			Spent:         r.Bool(6), // an IN expression: UInt8, which Bool reads
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("account leaves: %w", err)
		}
		out[a.Hash] = a
	}
	return out, nil
}

// AddressElement is an element of an indexed address tree.
type AddressElement struct {
	LeafIndex uint64
	Value     Key
	NextIndex uint64
	NextValue Key
}

// AddressRef is an address to prove absent from a tree.
type AddressRef struct {
	Address, Tree Key
}

// lowElementSQL is one address's low element: the largest value below it.
const lowElementSQL = `(SELECT toUInt32(%d) AS i, leaf_idx, value, next_index, next_value FROM address_tree_elements FINAL
	WHERE tree = {t%d:FixedString(32)} AND value < {a%d:FixedString(32)} ORDER BY value DESC LIMIT 1)`

// LowElements returns, per ref, the element whose range holds the address,
// or nil when the tree has no stored elements below it (an empty tree).
// One query reads all of them.
func LowElements(ctx context.Context, s store.Querier, refs []AddressRef) ([]*AddressElement, error) {
	out := make([]*AddressElement, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	parts := make([]string, len(refs))
	params := store.Params{}
	for i, r := range refs {
		parts[i] = fmt.Sprintf(lowElementSQL, i, i, i)
		params["t"+strconv.Itoa(i)] = keyParam(r.Tree)
		params["a"+strconv.Itoa(i)] = keyParam(r.Address)
	}
	res, err := s.Query(ctx, strings.Join(parts, "\nUNION ALL\n"), params)
	if err != nil {
		return nil, fmt.Errorf("low elements: %w", err)
	}
	for j := range res.Rows {
		r := res.Row(j)
		i := r.U32(0)
		e := &AddressElement{LeafIndex: r.U64(1), Value: r.Key(2), NextIndex: r.U64(3), NextValue: r.Key(4)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("low elements: %w", err)
		}
		if int(i) >= len(out) {
			return nil, fmt.Errorf("low elements: row for request %d of %d", i, len(out))
		}
		out[i] = e
	}
	return out, nil
}

// emptyAddressRootSeq is the sequence number Photon reports for an empty
// V1 address tree: the tree's initialisation wrote its first leaves.
const emptyAddressRootSeq = 3

// EmptyAddressProof is the non-inclusion proof against an address tree
// with nothing inserted yet: the low element is the initial element 0.
func EmptyAddressProof(t Tree) (AddressElement, MerkleProof, error) {
	typ := light.TreeType(t.Type)
	if t.Height == 0 || t.Height > light.MaxTreeHeight {
		return AddressElement{}, MerkleProof{}, fmt.Errorf("address tree %x: height %d", t.Tree[:4], t.Height)
	}
	els := light.InitialAddressElements(typ)
	low := els[0]
	leaf, err := light.AddressLeafHash(low, typ)
	if err != nil {
		return AddressElement{}, MerkleProof{}, err
	}
	p := MerkleProof{Tree: t.Tree, Leaf: Key(leaf), Proof: make([]Key, 0, t.Height)}
	node := leaf
	for level := 0; level < int(t.Height); level++ {
		sib := light.ZeroHash(level)
		if level == 0 && len(els) > 1 {
			if sib, err = light.AddressLeafHash(els[1], typ); err != nil {
				return AddressElement{}, MerkleProof{}, err
			}
		}
		p.Proof = append(p.Proof, Key(sib))
		if node, err = light.NodeHash(node, sib); err != nil {
			return AddressElement{}, MerkleProof{}, err
		}
	}
	p.Root = Key(node)
	if typ == light.TreeAddressV1 {
		p.RootSeq = emptyAddressRootSeq
	}
	return AddressElement{Value: Key(low.Value), NextIndex: low.NextIndex, NextValue: Key(low.NextValue)}, p, nil
}
