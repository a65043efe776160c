package compressedstate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// leafRow is a leaf of state_tree_nodes as a transaction wrote it; the
// state step derives the inner nodes above it.
type leafRow struct {
	Tree    solana.Pubkey
	NodeIdx uint64
	Hash    light.Hash
	Seq     uint64
	LeafIdx uint64
	Slot    uint64
}

// Table implements arrowbatch.Row.
func (*leafRow) Table() string { return schema.TableTreeNodes }

// addressElementRow is a row of address_tree_elements.
type addressElementRow struct {
	Tree solana.Pubkey
	light.IndexedElement
	Seq  uint64
	Slot uint64
}

// Table implements arrowbatch.Row.
func (*addressElementRow) Table() string { return schema.TableAddressElements }

// leafNodeIndex is the heap index of a leaf in a tree of the given height.
func leafNodeIndex(height uint32, leaf uint64) uint64 { return 1<<height + leaf }

// treeRows adds the Merkle tree leaves ev wrote: appends to V1 state trees,
// leaves the forester nullified (set to zero) and indexed address tree
// elements. Batched (V2) trees are not followed here. Leaves of trees the
// lookup does not know are skipped, as their outputs are.
func (d *Decoder) treeRows(ev *light.Events, out *decode.Batch) {
	leaf := func(info light.TreeInfo, idx uint64, h light.Hash, seq uint64) {
		if idx >= 1<<info.Height {
			return // not a leaf of this tree: a corrupt event
		}
		out.Add(&leafRow{Tree: info.Tree, NodeIdx: leafNodeIndex(info.Height, idx), Hash: h, Seq: seq, LeafIdx: idx, Slot: ev.Slot})
	}
	for i := range ev.Outputs {
		o := &ev.Outputs[i]
		if o.UnknownTree || o.Seq == nil || o.TreeType != light.TreeStateV1 {
			continue
		}
		if info, ok := d.trees.Tree(o.Tree); ok && validHeight(info) {
			leaf(info, uint64(o.LeafIndex), o.Hash, *o.Seq)
		}
	}
	for _, n := range ev.Nullifications {
		if info, ok := d.trees.Tree(n.Tree); ok && info.Type == light.TreeStateV1 && validHeight(info) {
			leaf(info, n.LeafIndex, light.Hash{}, n.Seq)
		}
	}
	seeded := map[solana.Pubkey]bool{}
	for _, u := range ev.IndexedUpdates {
		info, ok := d.trees.Tree(u.Tree)
		if !ok || info.Type != light.TreeAddressV1 || !validHeight(info) {
			continue
		}
		if !seeded[info.Tree] {
			// The elements an empty tree starts with, at seq 0 so that any
			// update of them wins. Writing them with every update keeps the
			// tree complete whichever transaction is indexed first.
			seeded[info.Tree] = true
			for _, e := range light.InitialAddressElements(info.Type) {
				h, err := light.AddressLeafHash(e, info.Type)
				if err != nil {
					continue // cannot happen: the values are constants in the field
				}
				leaf(info, e.Index, h, 0)
				out.Add(&addressElementRow{Tree: info.Tree, IndexedElement: e, Slot: ev.Slot})
			}
		}
		leaf(info, u.Leaf.Index, u.Hash, u.Seq)
		out.Add(&addressElementRow{Tree: info.Tree, IndexedElement: u.Leaf, Seq: u.Seq, Slot: ev.Slot})
	}
}

// validHeight reports whether the tree's leaves fit the node index.
func validHeight(info light.TreeInfo) bool {
	return info.Height > 0 && info.Height <= light.MaxTreeHeight
}

func treeNodesTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableTreeNodes, New: func(mem memory.Allocator) arrowbatch.Builder { return newLeafBuilder(mem) }}
}

type leafBuilder struct {
	arrowbatch.Base
	tree, hash                  *array.FixedSizeBinaryBuilder
	nodeIdx, seq, leafIdx, slot *array.Uint64Builder
	level                       *array.Uint8Builder
}

func newLeafBuilder(mem memory.Allocator) *leafBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &leafBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.tree, "tree", key),
		arrowbatch.Col(mem, &b.nodeIdx, "node_idx", u64),
		arrowbatch.Col(mem, &b.level, "level", arrow.PrimitiveTypes.Uint8),
		arrowbatch.Col(mem, &b.hash, "hash", key),
		arrowbatch.Col(mem, &b.seq, "seq", u64),
		arrowbatch.NullableCol(mem, &b.leafIdx, "leaf_idx", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
	)
	return b
}

func (b *leafBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*leafRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableTreeNodes, r)
	}
	b.tree.Append(row.Tree[:])
	b.nodeIdx.Append(row.NodeIdx)
	b.level.Append(0)
	b.hash.Append(row.Hash[:])
	b.seq.Append(row.Seq)
	b.leafIdx.Append(row.LeafIdx)
	b.slot.Append(row.Slot)
	b.Added(32 + 8 + 1 + 32 + 8 + 8 + 8)
	return nil
}

func addressElementsTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableAddressElements, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newAddressElementBuilder(mem)
	}}
}

type addressElementBuilder struct {
	arrowbatch.Base
	tree, value, nextValue        *array.FixedSizeBinaryBuilder
	leafIdx, nextIndex, seq, slot *array.Uint64Builder
}

func newAddressElementBuilder(mem memory.Allocator) *addressElementBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &addressElementBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.tree, "tree", key),
		arrowbatch.Col(mem, &b.leafIdx, "leaf_idx", u64),
		arrowbatch.Col(mem, &b.value, "value", key),
		arrowbatch.Col(mem, &b.nextIndex, "next_index", u64),
		arrowbatch.Col(mem, &b.nextValue, "next_value", key),
		arrowbatch.Col(mem, &b.seq, "seq", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
	)
	return b
}

func (b *addressElementBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*addressElementRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableAddressElements, r)
	}
	b.tree.Append(row.Tree[:])
	b.leafIdx.Append(row.Index)
	b.value.Append(row.Value[:])
	b.nextIndex.Append(row.NextIndex)
	b.nextValue.Append(row.NextValue[:])
	b.seq.Append(row.Seq)
	b.slot.Append(row.Slot)
	b.Added(32 + 8 + 32 + 8 + 32 + 8 + 8)
	return nil
}
