package schema

// Digital-asset tables (DAS).
const (
	// TableAssetAccounts holds every on-chain account behind a digital
	// asset, raw, one row per observed write.
	TableAssetAccounts = "asset_accounts"
	// TableBubblegumEvents holds every Bubblegum instruction applied to a
	// compressed NFT, with its leaf and change-log events.
	TableBubblegumEvents = "bubblegum_events"
)

// Kinds of asset_accounts rows.
const (
	AssetKindMint         = "mint"
	AssetKindTokenAccount = "token_account"
	AssetKindMetadata     = "metadata"
	AssetKindEdition      = "edition"
	AssetKindCore         = "core"
	AssetKindInscription  = "inscription"
	// AssetKindAgentIdentity is an mpl-agent identity record of a Core
	// asset, filed under the asset (it carries the agent token).
	AssetKindAgentIdentity = "agent_identity"
	// AssetKindClosed marks the account pubkey closed at the row's
	// (slot, write_version): the asset's other rows of that pubkey older
	// than it are closed (migration 33).
	AssetKindClosed = "closed"
)

// digitalAssets is migration 3.
//
// Accounts are stored raw and decoded when read: decoding one account takes
// microseconds, the raw bytes are the truth a new field or a decoder fix
// can be re-read from without re-ingesting, and the newest write of each
// account wins by (slot, write_version) whatever order updates arrive in.
// Rows are grouped under the asset they describe (asset_id), so one asset's
// whole state is one contiguous key range: the mint, its metadata and its
// token accounts under the mint; Core assets, editions and inscription
// accounts under their own address (readers look editions up by PDA).
//
// Compressed NFTs are event-sourced: every Bubblegum instruction is kept
// with its change-log seq, and an asset's state is the fold of its events
// in seq order, so indexing transactions in any order gives one answer.
//
// Both tables are read by point lookups of a few keys: small granules (64
// rows) and small compression blocks (4-16 KiB) keep the bytes read and
// decompressed per lookup small. The minmax index on indexed_at lets the
// serving index poll what was written since its last sync without a scan.
func digitalAssets() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_accounts (
			asset_id FixedString(32),
			kind LowCardinality(String),
			pubkey FixedString(32),
			program FixedString(32),
			data String CODEC(ZSTD(3)),
			slot UInt64,
			write_version UInt64,
			version UInt128 DEFAULT bitShiftLeft(toUInt128(slot), 64) + write_version,
			holder Nullable(FixedString(32)),
			amount UInt64,
			indexed_at DateTime64(3, 'UTC') DEFAULT now64(3),
			INDEX indexed_at_minmax indexed_at TYPE minmax GRANULARITY 4
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY (asset_id, kind, pubkey)
		SETTINGS index_granularity = 64, min_compress_block_size = 4096, max_compress_block_size = 16384`,
		`CREATE TABLE IF NOT EXISTS bubblegum_events (
			asset_id FixedString(32),
			seq UInt64,
			signature FixedString(64),
			tree FixedString(32),
			leaf_id UInt64,
			slot UInt64,
			instruction LowCardinality(String),
			ix_outer UInt16,
			ix_inner Int16,
			owner Nullable(FixedString(32)),
			delegate Nullable(FixedString(32)),
			payload String CODEC(ZSTD(3)),
			indexed_at DateTime64(3, 'UTC') DEFAULT now64(3),
			INDEX indexed_at_minmax indexed_at TYPE minmax GRANULARITY 4
		) ENGINE = ReplacingMergeTree
		ORDER BY (asset_id, seq, signature, ix_outer, ix_inner)
		SETTINGS index_granularity = 64, min_compress_block_size = 4096, max_compress_block_size = 16384`,
	}
}
