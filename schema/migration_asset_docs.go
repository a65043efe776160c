package schema

// TableAssetDocs holds each asset's folded document under its id, for
// getAsset and getAssetBatch.
const TableAssetDocs = "asset_docs"

// assetDocs is migration 29: the folded document of every asset in an
// EmbeddedRocksDB table keyed by id. A point read of a ReplacingMergeTree
// must read a granule of every part that may hold the key and collapse
// them (FINAL); a key-value table answers a key, or a set of keys, with
// one lookup each, so a batch of a hundred ids costs about what one id
// costs in asset_state. The fold writes the row after asset_state's, and
// the newest fold is the truest (see assetState), so the last write
// winning is the right rule. asset_state keeps its documents for analysts
// and for folds; this table is the serving copy. A store migrated from an
// earlier version gets the documents asset_state holds.
// assetDocColumns are the columns of a folded document keyed by id, in
// asset_docs and asset_docs_prev.
const assetDocColumns = `
			id FixedString(32),
			slot UInt64,
			status String,
			error String,
			doc String
		`

func assetDocs() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_docs (` + assetDocColumns + `) ENGINE = EmbeddedRocksDB
		PRIMARY KEY id`,
		`INSERT INTO asset_docs SELECT id, slot, status, error, doc FROM asset_state FINAL`,
	}
}
