package compressedstate

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Inner Merkle tree nodes are derived in Go (Poseidon has no SQL form) from
// the leaves the decoder wrote. For every leaf a slot range wrote, the path
// to the root is recomputed from the newest version of each leaf and the
// stored siblings. Siblings are current because every earlier leaf write
// recomputed its own path, so the result does not depend on the order
// transactions were indexed in, and applying a range again rewrites the
// same nodes.

// sqlTouchedLeaves lists the leaves written in a slot range.
const sqlTouchedLeaves = `SELECT DISTINCT tree, node_idx FROM state_tree_nodes
WHERE level = 0 AND slot BETWEEN {from:UInt64} AND {to:UInt64}
ORDER BY tree, node_idx`

// sqlNodes reads the newest version of some nodes of one tree.
const sqlNodes = `SELECT node_idx, hash, seq FROM state_tree_nodes FINAL
WHERE tree = {tree:FixedString(32)} AND node_idx IN {ids:Array(UInt64)}`

// nodeRecordSize is one packed inner node: node_idx, level, hash, seq.
const nodeRecordSize = 8 + 1 + 32 + 8

// sqlInsertNodes unpacks the records of the String param rows.
const sqlInsertNodes = `INSERT INTO state_tree_nodes (tree, node_idx, level, hash, seq, leaf_idx, slot)
SELECT {tree:FixedString(32)},
	reinterpretAsUInt64(substring({rows:String}, number * 49 + 1, 8)),
	reinterpretAsUInt8(substring({rows:String}, number * 49 + 9, 1)),
	toFixedString(substring({rows:String}, number * 49 + 10, 32), 32),
	reinterpretAsUInt64(substring({rows:String}, number * 49 + 42, 8)),
	NULL,
	{slot:UInt64}
FROM numbers(intDiv(length({rows:String}), 49))`

// maxNodesPerInsert bounds one insert's param (about 2.5 MB).
const maxNodesPerInsert = 50000

// node is a stored or computed tree node.
type node struct {
	hash light.Hash
	seq  uint64
}

// applyTreeNodes recomputes the inner nodes above the leaves written in
// from..to.
func applyTreeNodes(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	params := store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)}
	res, err := s.Query(ctx, sqlTouchedLeaves, params)
	if err != nil {
		return fmt.Errorf("find written tree leaves: %w", err)
	}
	if len(res.Rows) == 0 {
		return nil
	}
	byTree := map[solana.Pubkey][]uint64{}
	var order []solana.Pubkey
	for i := range res.Rows {
		r := res.Row(i)
		tree, idx := solana.Pubkey(r.Key(0)), r.U64(1)
		if err := r.Err(); err != nil {
			return fmt.Errorf("written tree leaves: %w", err)
		}
		if _, ok := byTree[tree]; !ok {
			order = append(order, tree)
		}
		byTree[tree] = append(byTree[tree], idx)
	}
	trees, err := LoadTrees(ctx, s)
	if err != nil {
		return err
	}
	for _, tree := range order {
		info, ok := trees.Tree(tree)
		if !ok || info.Tree != tree || !validHeight(info) {
			continue // the decoder writes leaves of known trees only
		}
		if err := rebuildPaths(ctx, s, info, byTree[tree], to); err != nil {
			return fmt.Errorf("tree %s: %w", tree, err)
		}
	}
	return nil
}

// rebuildPaths recomputes the paths from leaves (node indexes) to the root
// of one tree and stores them.
func rebuildPaths(ctx context.Context, s arrowstore.Writer, info light.TreeInfo, leaves []uint64, slot uint64) error {
	// Read the leaves and every sibling along their paths in one query.
	need := map[uint64]bool{}
	for _, n := range leaves {
		need[n] = true
		for ; n > 1; n >>= 1 {
			need[n^1] = true
		}
	}
	stored, err := readNodes(ctx, s, info.Tree, need)
	if err != nil {
		return err
	}
	get := func(computed map[uint64]node, idx uint64, level int) node {
		if v, ok := computed[idx]; ok {
			return v
		}
		if v, ok := stored[idx]; ok {
			return v
		}
		return node{hash: light.ZeroHash(level)}
	}
	level := map[uint64]node{}
	for _, n := range leaves {
		level[n] = get(nil, n, 0)
	}
	var rows []byte
	for l := 0; l < int(info.Height); l++ {
		parents := make(map[uint64]node, len(level)/2+1)
		for idx := range level {
			p := idx >> 1
			if _, done := parents[p]; done {
				continue
			}
			left, right := get(level, p<<1, l), get(level, p<<1|1, l)
			h, err := light.NodeHash(left.hash, right.hash)
			if err != nil {
				return fmt.Errorf("hash node %d: %w", p, err)
			}
			parents[p] = node{hash: h, seq: max(left.seq, right.seq)}
			rows = binary.LittleEndian.AppendUint64(rows, p)
			rows = append(rows, byte(l+1))
			rows = append(rows, h[:]...)
			rows = binary.LittleEndian.AppendUint64(rows, max(left.seq, right.seq))
		}
		level = parents
	}
	for len(rows) > 0 {
		n := min(len(rows), maxNodesPerInsert*nodeRecordSize)
		p := store.Params{"tree": string(info.Tree[:]), "rows": string(rows[:n]), "slot": strconv.FormatUint(slot, 10)}
		if err := s.Exec(ctx, sqlInsertNodes, p); err != nil {
			return fmt.Errorf("write inner nodes: %w", err)
		}
		rows = rows[n:]
	}
	return nil
}

// readNodes reads the newest stored version of the nodes in ids.
func readNodes(ctx context.Context, s arrowstore.Writer, tree solana.Pubkey, ids map[uint64]bool) (map[uint64]node, error) {
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
	res, err := s.Query(ctx, sqlNodes, store.Params{"tree": string(tree[:]), "ids": b.String()})
	if err != nil {
		return nil, fmt.Errorf("read tree nodes: %w", err)
	}
	out := make(map[uint64]node, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		idx, h, seq := r.U64(0), r.Key(1), r.U64(2)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("tree node %d: %w", idx, err)
		}
		out[idx] = node{hash: light.Hash(h), seq: seq}
	}
	return out, nil
}
