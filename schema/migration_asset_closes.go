package schema

// Tables of closed asset accounts.
const (
	// TableAssetFeeds says which asset rows each account has fed: one row
	// per (pubkey, asset_id, kind) of asset_accounts, keyed by pubkey.
	TableAssetFeeds = "asset_feeds"
	// TableAssetCloses holds every observed close of an account.
	TableAssetCloses = "asset_closes"
)

// assetCloses is migration 33.
//
// A closed account (no lamports, handed back to the System program, or
// emptied) carries nothing that says what it was: the asset it fed is
// known only from its earlier writes, which asset_accounts files under
// the asset (asset_id, kind, pubkey). asset_feeds turns that around, one
// row per account and asset it fed, so a close is resolved by a keyed
// read of its pubkey. asset_closes keeps each close (pubkey, slot,
// write_version): the asset state step writes, for every row an account
// fed that is older than one of its closes, a tombstone at the close's
// version (empty data in asset_accounts; closed, amount 0 in the token
// tables), and the replacing engines keep whichever of tombstone and
// write is newer. Keeping the closes makes that order-independent: a
// write indexed after a later close is ended when its range is folded;
// an account opened again at the same address is a newer write and wins.
//
// asset_token_accounts and asset_token_owners gain closed: a closed
// account's tombstone, which readers leave out.
func assetCloses() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS asset_feeds (
			pubkey FixedString(32),
			asset_id FixedString(32),
			kind LowCardinality(String)
		) ENGINE = ReplacingMergeTree
		ORDER BY (pubkey, asset_id, kind)
		SETTINGS index_granularity = 256`,
		`CREATE TABLE IF NOT EXISTS asset_closes (
			pubkey FixedString(32),
			slot UInt64,
			write_version UInt64,
			INDEX slot_minmax slot TYPE minmax GRANULARITY 1
		) ENGINE = ReplacingMergeTree
		ORDER BY (pubkey, slot, write_version)
		SETTINGS index_granularity = 256`,
		`ALTER TABLE asset_token_accounts ADD COLUMN IF NOT EXISTS closed Bool`,
		`ALTER TABLE asset_token_owners ADD COLUMN IF NOT EXISTS closed Bool`,
	}
}
