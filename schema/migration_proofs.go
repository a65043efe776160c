package schema

// Merkle tree state for the proof methods.
const (
	// TableTreeNodes holds the nodes of state and address trees: leaves
	// written by the decoder, inner nodes by the state step.
	TableTreeNodes = "state_tree_nodes"
	// TableAddressElements holds the elements of indexed address trees.
	TableAddressElements = "address_tree_elements"
)

// proofState is migration 4: what getCompressedAccountProof,
// getMultipleNewAddressProofs and getValidityProof read.
func proofState() []string {
	return []string{
		// One row per written node. node_idx is the heap index (root 1, the
		// leaves of a tree of height h from 2^h), so the siblings of a leaf
		// are one primary-key lookup; a node never written is the zero hash
		// of its level. seq is the tree sequence number of the newest leaf
		// below the node: a leaf written twice keeps its newest version
		// whatever order transactions are indexed in.
		`CREATE TABLE IF NOT EXISTS state_tree_nodes (
			tree FixedString(32),
			node_idx UInt64,
			level UInt8,
			hash FixedString(32),
			seq UInt64,
			leaf_idx Nullable(UInt64),
			slot UInt64,
			INDEX slot_mm slot TYPE minmax GRANULARITY 1
		) ENGINE = ReplacingMergeTree(seq)
		ORDER BY (tree, node_idx)`,
		// Elements of indexed (address) trees, newest version by seq: the
		// element with the largest value below an address is the low
		// element of its non-inclusion proof.
		`CREATE TABLE IF NOT EXISTS address_tree_elements (
			tree FixedString(32),
			leaf_idx UInt64,
			value FixedString(32),
			next_index UInt64,
			next_value FixedString(32),
			seq UInt64,
			slot UInt64
		) ENGINE = ReplacingMergeTree(seq)
		ORDER BY (tree, leaf_idx)`,
	}
}
