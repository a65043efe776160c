package schema

// TableBubblegumNodes holds the current hash of every written node of
// every Bubblegum tree, for getAssetProof.
const TableBubblegumNodes = "bubblegum_nodes"

// bubblegumNodes is migration 28.
//
// Every tree update logs its new path, leaf to root, with the heap index
// of each node (root 1, the leaves of a tree of depth d from 2^d) and the
// tree's sequence number. A node's current hash is the one of the highest
// seq that wrote it, whatever order transactions are indexed in, so the
// engine keeps one row per (tree, node_index) by seq. A proof is one
// keyed read of the leaf, its depth siblings and the root; nodes never
// written are empty subtrees and have no row. Those reads touch one
// granule per level, far apart in the key: small granules (32 rows) and
// compression blocks keep each cheap.
//
// A store indexed before this migration gets the nodes of the change logs
// its Bubblegum events hold (every event keeps its change log in its
// payload); tree-level updates, which have no event, only ever logged
// empty trees, which need no row. Run twice, it writes the same rows,
// which the engine folds.
func bubblegumNodes() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS bubblegum_nodes (
			tree FixedString(32),
			node_index UInt32,
			level UInt8,
			hash FixedString(32),
			seq UInt64,
			slot UInt64,
			indexed_at DateTime64(3, 'UTC') DEFAULT now64(3)
		) ENGINE = ReplacingMergeTree(seq)
		ORDER BY (tree, node_index)
		SETTINGS index_granularity = 32, min_compress_block_size = 4096, max_compress_block_size = 16384`,
		`INSERT INTO bubblegum_nodes (tree, node_index, level, hash, seq, slot)
		SELECT tree, toUInt32(JSONExtractUInt(node, 'index')), toUInt8(level - 1),
			toFixedString(base58Decode(JSONExtractString(node, 'node')), 32), seq, slot
		FROM bubblegum_events
		ARRAY JOIN JSONExtractArrayRaw(payload, 'change_log', 'path') AS node,
			arrayEnumerate(JSONExtractArrayRaw(payload, 'change_log', 'path')) AS level
		WHERE seq > 0`,
	}
}
