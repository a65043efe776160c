package schema

// TableAssetKeys holds the listing read paths of digital assets: one row
// per (path, key, asset), written by the asset state step.
const TableAssetKeys = "asset_keys"

// Token accounts, decoded at ingest: by mint and by owner.
const (
	TableAssetTokenAccounts = "asset_token_accounts"
	TableAssetTokenOwners   = "asset_token_owners"
)

// TableAssetEditions lists print editions under their master edition.
const TableAssetEditions = "asset_editions"

// Paths of asset_keys rows. A grouping's path is AssetPathGroup followed
// by its group key ("group:collection").
const (
	AssetPathOwner     = "owner"
	AssetPathCreator   = "creator"
	AssetPathAuthority = "authority"
	AssetPathGroup     = "group:"
	// AssetPathEdition is a print's master edition; its keys go to
	// asset_editions, not asset_keys.
	AssetPathEdition = "edition"
	// AssetPathDepends files an asset under each asset it is folded from
	// (its edition PDA, its collection), without a document: a write to
	// one of those folds it again.
	AssetPathDepends = "depends"
)

// assetListing is migration 27: what listing and searching assets read.
//
// asset_state gains the decoded members searchAssets filters on, so a
// search reads narrow columns instead of documents. asset_keys is one
// table for every access path (owner, creator, authority, grouping),
// ordered by (path, key, id): a page of an owner's assets is one range
// read in id order, resumed from a keyset cursor without scanning what
// came before. A fold writes every key of the asset it folds and, for
// the keys its previous fold wrote and this one does not, a tombstone
// (is_deleted), so FINAL shows each asset under its current keys only,
// and counts over a key are exact. Each live row carries the asset's
// folded document too: a page of a listing is then one range read of
// contiguous rows, not a point read per asset scattered over asset_state
// (the cost that dominated a page). asset_state.keys holds the keys a fold
// wrote, encoded, so the next fold finds them with its point read. slot and created_slot are copied in
// so the other sort orders need not read asset_state.
//
// asset_editions lists each print edition (address, mint, number) under
// its master edition's address, in edition number order, kept by the
// same fold with tombstones; asset_state.print_supply and
// print_max_supply are a master edition's counts (NULL for other assets).
//
// SPL token accounts are decoded once, at ingest, into two tables of the
// same columns: asset_token_accounts ordered by (mint, address), a
// mint's holders in one range, and asset_token_owners ordered by (owner,
// address), an owner's accounts in one range. Both replace by write
// version; an account that changed owner leaves its old row under the
// old owner, so readers of asset_token_owners keep only rows whose
// (mint, address) is still that owner's in asset_token_accounts.
//
// asset_accounts gains a bloom filter on holder: the mints an owner holds
// through token accounts are found without a full scan.
func assetListing() []string {
	return []string{
		`ALTER TABLE asset_state
			ADD COLUMN IF NOT EXISTS interface LowCardinality(String),
			ADD COLUMN IF NOT EXISTS owner FixedString(32),
			ADD COLUMN IF NOT EXISTS owner_type LowCardinality(String),
			ADD COLUMN IF NOT EXISTS delegate Nullable(FixedString(32)),
			ADD COLUMN IF NOT EXISTS frozen Bool,
			ADD COLUMN IF NOT EXISTS burnt Bool,
			ADD COLUMN IF NOT EXISTS compressed Bool,
			ADD COLUMN IF NOT EXISTS compressible Bool,
			ADD COLUMN IF NOT EXISTS supply UInt64,
			ADD COLUMN IF NOT EXISTS supply_mint Nullable(FixedString(32)),
			ADD COLUMN IF NOT EXISTS tree Nullable(FixedString(32)),
			ADD COLUMN IF NOT EXISTS royalty_model LowCardinality(String),
			ADD COLUMN IF NOT EXISTS royalty_target Nullable(FixedString(32)),
			ADD COLUMN IF NOT EXISTS royalty_bps UInt32,
			ADD COLUMN IF NOT EXISTS json_uri String,
			ADD COLUMN IF NOT EXISTS name String,
			ADD COLUMN IF NOT EXISTS created_slot UInt64,
			ADD COLUMN IF NOT EXISTS print_supply Nullable(UInt64),
			ADD COLUMN IF NOT EXISTS print_max_supply Nullable(UInt64),
			ADD COLUMN IF NOT EXISTS keys Array(String),
			ADD COLUMN IF NOT EXISTS is_agent Bool,
			ADD COLUMN IF NOT EXISTS agent_token Nullable(FixedString(32)),
			ADD COLUMN IF NOT EXISTS asset_signer Nullable(FixedString(32))`,
		`CREATE TABLE IF NOT EXISTS asset_keys (
			path LowCardinality(String),
			key FixedString(32),
			id FixedString(32),
			verified Bool,
			slot UInt64,
			created_slot UInt64,
			version UInt64,
			is_deleted UInt8,
			doc String CODEC(ZSTD(3))
		) ENGINE = ReplacingMergeTree(version, is_deleted)
		ORDER BY (path, key, id)
		SETTINGS index_granularity = 256`,
		`CREATE TABLE IF NOT EXISTS asset_editions (
			master FixedString(32),
			edition FixedString(32),
			mint FixedString(32),
			number UInt64,
			slot UInt64,
			version UInt64,
			is_deleted UInt8
		) ENGINE = ReplacingMergeTree(version, is_deleted)
		ORDER BY (master, number, edition)
		SETTINGS index_granularity = 1024`,
		`CREATE TABLE IF NOT EXISTS asset_token_accounts (` + tokenAccountColumns + `
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY (mint, address)
		SETTINGS index_granularity = 256`,
		`CREATE TABLE IF NOT EXISTS asset_token_owners (` + tokenAccountColumns + `
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY (owner, address)
		SETTINGS index_granularity = 256`,
		`ALTER TABLE asset_accounts ADD INDEX IF NOT EXISTS holder_bf holder TYPE bloom_filter(0.01) GRANULARITY 4`,
		`ALTER TABLE asset_accounts MATERIALIZE INDEX holder_bf`,
	}
}

// tokenAccountColumns are an SPL token account as decoded at ingest.
// extensions is a Token-2022 account's extensions as JSON, empty for none.
const tokenAccountColumns = `
	address FixedString(32),
	mint FixedString(32),
	owner FixedString(32),
	program FixedString(32),
	amount UInt64,
	frozen Bool,
	delegate Nullable(FixedString(32)),
	delegated_amount UInt64,
	close_authority Nullable(FixedString(32)),
	extensions String,
	slot UInt64,
	write_version UInt64,
	version UInt128 DEFAULT bitShiftLeft(toUInt128(slot), 64) + write_version`
