package light

import (
	"fmt"
	"io"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
)

// TreeType is the kind of a Merkle tree; the values are the codes Photon
// stores and returns as merkleContext.treeType.
type TreeType uint8

const (
	TreeStateV1   TreeType = 1 // concurrent state tree with a nullifier queue
	TreeAddressV1 TreeType = 2 // indexed address tree with an address queue
	TreeStateV2   TreeType = 3 // batched state tree with an output queue
	TreeAddressV2 TreeType = 4 // batched address tree, its own queue
)

func (t TreeType) String() string {
	switch t {
	case TreeStateV1:
		return "StateV1"
	case TreeAddressV1:
		return "AddressV1"
	case TreeStateV2:
		return "StateV2"
	case TreeAddressV2:
		return "AddressV2"
	}
	return fmt.Sprintf("TreeType(%d)", uint8(t))
}

// TreeInfo is the metadata of a tree the indexer follows.
type TreeInfo struct {
	Tree                solana.Pubkey
	Queue               solana.Pubkey
	Type                TreeType
	Height              uint32
	RootHistoryCapacity uint64
}

// TreeLookup finds a tree by its own pubkey or by its queue's pubkey, the
// way Photon resolves the accounts an event names.
type TreeLookup interface {
	Tree(key solana.Pubkey) (TreeInfo, bool)
}

// TreeMap is a TreeLookup over a fixed set of trees.
type TreeMap struct {
	byTree  map[solana.Pubkey]TreeInfo
	byQueue map[solana.Pubkey]TreeInfo
}

// NewTreeMap indexes trees (keyed by tree pubkey) by tree and by queue.
func NewTreeMap(trees map[solana.Pubkey]TreeInfo) *TreeMap {
	m := &TreeMap{
		byTree:  make(map[solana.Pubkey]TreeInfo, len(trees)),
		byQueue: make(map[solana.Pubkey]TreeInfo, len(trees)),
	}
	for _, t := range trees {
		m.byTree[t.Tree] = t
		m.byQueue[t.Queue] = t
	}
	return m
}

// Tree implements TreeLookup; a tree pubkey wins over a queue pubkey.
func (m *TreeMap) Tree(key solana.Pubkey) (TreeInfo, bool) {
	if t, ok := m.byTree[key]; ok {
		return t, true
	}
	t, ok := m.byQueue[key]
	return t, ok
}

type treesFileJSON struct {
	Trees []struct {
		Tree                string  `json:"tree"`
		Queue               string  `json:"queue"`
		TreeTypeCode        uint8   `json:"tree_type_code"`
		Height              *uint32 `json:"height"`
		RootHistoryCapacity *uint64 `json:"root_history_capacity"`
	} `json:"trees"`
}

// LoadTrees reads the seed list of a trees.json file (its "trees" member).
// A tree listed twice keeps its first entry, as an upsert of the seed rows
// would.
func LoadTrees(r io.Reader) (map[solana.Pubkey]TreeInfo, error) {
	var in treesFileJSON
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return nil, fmt.Errorf("trees file: %w", err)
	}
	out := make(map[solana.Pubkey]TreeInfo, len(in.Trees))
	for i, t := range in.Trees {
		info, err := treeFromJSON(t.Tree, t.Queue, t.TreeTypeCode, t.Height, t.RootHistoryCapacity)
		if err != nil {
			return nil, fmt.Errorf("trees file: entry %d: %w", i, err)
		}
		if _, dup := out[info.Tree]; !dup {
			out[info.Tree] = info
		}
	}
	return out, nil
}

func treeFromJSON(tree, queue string, code uint8, height *uint32, capacity *uint64) (TreeInfo, error) {
	var info TreeInfo
	var err error
	if info.Tree, err = solana.ParsePubkey(tree); err != nil {
		return info, fmt.Errorf("tree: %w", err)
	}
	if info.Queue, err = solana.ParsePubkey(queue); err != nil {
		return info, fmt.Errorf("queue: %w", err)
	}
	info.Type = TreeType(code)
	if info.Type < TreeStateV1 || info.Type > TreeAddressV2 {
		return info, fmt.Errorf("tree %s: unknown tree_type_code %d", tree, code)
	}
	if height == nil || capacity == nil {
		return info, fmt.Errorf("tree %s: height and root_history_capacity are required", tree)
	}
	info.Height, info.RootHistoryCapacity = *height, *capacity
	return info, nil
}
