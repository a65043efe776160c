package schema

// TableAssetState holds every digital asset's current state, folded by
// the asset state step from asset_accounts and bubblegum_events.
const TableAssetState = "asset_state"

// Status values of asset_state rows.
const (
	// AssetStatusOK is a rendered asset: doc holds it.
	AssetStatusOK = ""
	// AssetStatusNotFound is an id with rows but no asset to show (only a
	// token account indexed, a cNFT without its mint, ...).
	AssetStatusNotFound = "not_found"
	// AssetStatusNoSupply is an NFT whose mint supply is 0.
	AssetStatusNoSupply = "no_supply"
	// AssetStatusError is state that did not decode; error says why.
	AssetStatusError = "error"
)

// assetState is migration 26: one row per asset, read by a keyed point
// lookup, so a getAsset neither folds raw rows nor decodes account bytes.
// Documents are a few KiB: small granules and compression blocks keep a
// lookup from decompressing hundreds of its neighbours.
//
// doc is the asset rendered with every optional member shown
// (asset.Folded), from which any display options are a view; slot is the
// newest slot of the rows the fold read. A fold reads the newest stored
// state of every row it needs, so the latest fold is always the truest:
// version is the fold's time in nanoseconds, and applying a range again,
// in any order, leaves the same answer. edition and collection
// name the other assets whose rows the fold read, so that a write to one
// of them folds this asset again; their bloom filters find the dependents.
//
// The raw tables gain a minmax index on slot: the step finds what a slot
// range touched without reading their other columns.
func assetState() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_state (
			id FixedString(32),
			version UInt64,
			slot UInt64,
			status LowCardinality(String),
			error String,
			doc String CODEC(ZSTD(3)),
			edition FixedString(32),
			collection Nullable(FixedString(32)),
			folded_at DateTime64(3, 'UTC') DEFAULT now64(3),
			INDEX edition_bf edition TYPE bloom_filter(0.01) GRANULARITY 4,
			INDEX collection_bf collection TYPE bloom_filter(0.01) GRANULARITY 4
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY id
		SETTINGS index_granularity = 64, min_compress_block_size = 4096, max_compress_block_size = 16384`,
		`ALTER TABLE asset_accounts ADD INDEX IF NOT EXISTS slot_minmax slot TYPE minmax GRANULARITY 1`,
		`ALTER TABLE asset_accounts MATERIALIZE INDEX slot_minmax`,
		`ALTER TABLE bubblegum_events ADD INDEX IF NOT EXISTS slot_minmax slot TYPE minmax GRANULARITY 1`,
		`ALTER TABLE bubblegum_events MATERIALIZE INDEX slot_minmax`,
	}
}
