// Package bubblegumtree keeps the nodes of every Bubblegum tree: each
// change log a tree update logs (its new path, leaf to root) becomes one
// bubblegum_nodes row per node, and the table keeps the highest seq of
// each node, so getAssetProof reads a leaf's current siblings and root
// whatever order transactions were indexed in.
package bubblegumtree

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// Decoder writes the nodes of the change logs of Bubblegum transactions.
// It holds no state and is safe for concurrent use.
type Decoder struct{}

var _ decode.Decoder = Decoder{}

// Name implements decode.Decoder.
func (Decoder) Name() string { return "bubblegum_tree" }

// Tables implements decode.Decoder.
func (Decoder) Tables() []arrowbatch.Table { return []arrowbatch.Table{NodesTable()} }

// DecodeAccount implements decode.Decoder: tree accounts are not read,
// the change logs carry every node.
func (Decoder) DecodeAccount(*solana.Account, *decode.Batch) error { return nil }

// DecodeTx implements decode.Decoder.
func (Decoder) DecodeTx(tx *solana.Tx, out *decode.Batch) error {
	cls, err := bubblegum.ChangeLogs(tx)
	if err != nil {
		return err
	}
	for i := range cls {
		for _, r := range NodeRows(&cls[i], tx.Slot) {
			out.Add(r)
		}
	}
	return nil
}

// NodeRow is a row of bubblegum_nodes: one node of a tree as a change log
// left it.
type NodeRow struct {
	Tree      bubblegum.Key
	NodeIndex uint32 // heap index: root 1
	Level     uint8  // 0 for leaves, the tree's depth for the root
	Hash      bubblegum.Key
	Seq       uint64
	Slot      uint64
}

// Table implements arrowbatch.Row.
func (*NodeRow) Table() string { return schema.TableBubblegumNodes }

// NodeRows are the rows of the nodes of cl's path (bubblegum.ChangeLogs
// checked it), logged in slot.
func NodeRows(cl *bubblegum.ChangeLog, slot uint64) []*NodeRow {
	rows := make([]*NodeRow, len(cl.Path))
	for lvl, n := range cl.Path {
		rows[lvl] = &NodeRow{Tree: cl.Tree, NodeIndex: n.Index, Level: uint8(lvl), Hash: n.Node, Seq: cl.Seq, Slot: slot}
	}
	return rows
}

// NodesTable describes bubblegum_nodes. Which row of a node survives is
// the engine's choice by seq, so its parts may commit in any order.
func NodesTable() arrowbatch.Table {
	return arrowbatch.Table{Name: schema.TableBubblegumNodes, AnyOrder: true, New: func(mem memory.Allocator) arrowbatch.Builder {
		return newNodesBuilder(mem)
	}}
}

type nodesBuilder struct {
	arrowbatch.Base
	tree, hash *array.FixedSizeBinaryBuilder
	nodeIndex  *array.Uint32Builder
	level      *array.Uint8Builder
	seq, slot  *array.Uint64Builder
}

func newNodesBuilder(mem memory.Allocator) *nodesBuilder {
	key, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	b := &nodesBuilder{}
	b.Base = arrowbatch.NewBase(
		arrowbatch.Col(mem, &b.tree, "tree", key),
		arrowbatch.Col(mem, &b.nodeIndex, "node_index", arrow.PrimitiveTypes.Uint32),
		arrowbatch.Col(mem, &b.level, "level", arrow.PrimitiveTypes.Uint8),
		arrowbatch.Col(mem, &b.hash, "hash", key),
		arrowbatch.Col(mem, &b.seq, "seq", u64),
		arrowbatch.Col(mem, &b.slot, "slot", u64),
	)
	return b
}

func (b *nodesBuilder) Append(r arrowbatch.Row) error {
	row, ok := r.(*NodeRow)
	if !ok {
		return fmt.Errorf("%s: cannot append %T", schema.TableBubblegumNodes, r)
	}
	b.tree.Append(row.Tree[:])
	b.nodeIndex.Append(row.NodeIndex)
	b.level.Append(row.Level)
	b.hash.Append(row.Hash[:])
	b.seq.Append(row.Seq)
	b.slot.Append(row.Slot)
	b.Added(32*2 + 4 + 1 + 16)
	return nil
}
