package compressedstate

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// SeedTrees upserts the trees of a trees.json document (its "trees" list)
// into state_trees. Seeding the same list again changes nothing; a tree
// seeded again with other values takes the new ones.
func SeedTrees(ctx context.Context, s arrowstore.Writer, r io.Reader) error {
	trees, err := light.LoadTrees(r)
	if err != nil {
		return fmt.Errorf("seed trees: %w", err)
	}
	// In key order, so that the rows are written deterministically.
	keys := slices.SortedFunc(maps.Keys(trees), func(a, b solana.Pubkey) int { return cmp.Compare(string(a[:]), string(b[:])) })
	for _, k := range keys {
		t := trees[k]
		err := s.Exec(ctx, `INSERT INTO state_trees (tree, queue, tree_type, height, root_history_capacity)
			VALUES ({tree:FixedString(32)}, {queue:FixedString(32)}, {type:UInt8}, {height:UInt32}, {capacity:UInt64})`,
			store.Params{
				"tree":     string(t.Tree[:]),
				"queue":    string(t.Queue[:]),
				"type":     strconv.FormatUint(uint64(t.Type), 10),
				"height":   strconv.FormatUint(uint64(t.Height), 10),
				"capacity": strconv.FormatUint(t.RootHistoryCapacity, 10),
			})
		if err != nil {
			return fmt.Errorf("seed tree %s: %w", t.Tree, err)
		}
	}
	return nil
}

// LoadTrees reads state_trees into a lookup by tree and by queue pubkey.
func LoadTrees(ctx context.Context, s arrowstore.Writer) (light.TreeLookup, error) {
	res, err := s.Query(ctx, `SELECT tree, queue, tree_type, height, root_history_capacity FROM state_trees FINAL`, nil)
	if err != nil {
		return nil, fmt.Errorf("load trees: %w", err)
	}
	trees := make(map[solana.Pubkey]light.TreeInfo, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		t := light.TreeInfo{Tree: r.Key(0), Queue: r.Key(1), Type: light.TreeType(r.U8(2)), Height: r.U32(3), RootHistoryCapacity: r.U64(4)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("load trees: %w", err)
		}
		trees[t.Tree] = t
	}
	return light.NewTreeMap(trees), nil
}

// countTrees returns how many trees state_trees holds.
func countTrees(ctx context.Context, s arrowstore.Writer) (uint64, error) {
	res, err := s.Query(ctx, `SELECT count() FROM state_trees FINAL`, nil)
	if err != nil {
		return 0, fmt.Errorf("count trees: %w", err)
	}
	n, _ := res.Rows[0][0].(uint64)
	return n, nil
}
