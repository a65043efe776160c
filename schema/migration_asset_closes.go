package schema

// Tables of closed asset accounts.
const (
	// TableAssetPubkeys says, by account, which asset rows it has fed
	// (one row per asset_id and kind) and when it was last closed (one
	// row of kind closed).
	TableAssetPubkeys = "asset_pubkeys"
	// TableAssetCloses holds every observed close of an account, by slot.
	TableAssetCloses = "asset_closes"
)

// assetCloses is migration 33.
//
// A closed account (no lamports, handed back to the System program, or
// emptied) carries nothing that says what it was: the asset it fed is
// known only from its earlier writes, which asset_accounts files under
// the asset (asset_id, kind, pubkey). asset_pubkeys turns that around:
// one row per account and asset row it fed, and one (kind closed, no
// asset) holding its newest close, which the engine keeps whatever
// order closes are indexed in. asset_closes lists the closes by slot, so
// the asset state step finds a slot range's closes with a range read;
// for each it reads the account's rows of asset_pubkeys and ends what it
// fed: a token account gets a tombstone at the close (empty data in
// asset_accounts; closed, amount 0 in the token tables), any other row
// keeps its data and gets a marker of kind closed beside it, so the
// asset renders from the last state it had open. An account opened
// again is a newer write and wins; a write indexed after a later close
// is ended when its range is folded.
//
// asset_token_accounts and asset_token_owners gain closed: a closed
// account's tombstone, which readers leave out.
func assetCloses() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_pubkeys (
			pubkey FixedString(32),
			asset_id FixedString(32),
			kind LowCardinality(String),
			slot UInt64,
			write_version UInt64,
			version UInt128 DEFAULT bitShiftLeft(toUInt128(slot), 64) + write_version
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY (pubkey, asset_id, kind)
		SETTINGS index_granularity = 256`,
		`CREATE TABLE IF NOT EXISTS asset_closes (
			slot UInt64,
			pubkey FixedString(32),
			write_version UInt64
		) ENGINE = ReplacingMergeTree
		ORDER BY (slot, pubkey, write_version)
		SETTINGS index_granularity = 1024`,
		`ALTER TABLE asset_token_accounts ADD COLUMN IF NOT EXISTS closed Bool`,
		`ALTER TABLE asset_token_owners ADD COLUMN IF NOT EXISTS closed Bool`,
	}
}
