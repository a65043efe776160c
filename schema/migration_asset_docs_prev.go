package schema

// TableAssetDocsPrev holds, for an asset whose serving document in
// asset_docs is newer than the checkpoint, the newest version at or below
// it: what getAsset answers while its stamp has not reached the newer one.
const TableAssetDocsPrev = "asset_docs_prev"

// assetDocsPrev is migration 38. asset_docs keeps one document per id and
// the fold overwrites it before the checkpoint covers the slots it read,
// so a reader stamped with the checkpoint would see later state; the
// version the overwrite replaced is kept here, under the same id. A row
// is written only when a fold replaces a document the checkpoint covers:
// at most one per asset that changed after its first fold. Rows are not
// removed once the checkpoint passes their replacement; readers then no
// longer look them up. The slot column is the slot the kept document is
// visible from.
func assetDocsPrev() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_docs_prev (` + assetDocColumns + `) ENGINE = EmbeddedRocksDB
		PRIMARY KEY id`,
	}
}
