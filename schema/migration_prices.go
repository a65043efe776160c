package schema

// TableTokenPrices holds the token prices the serving process derives
// from token_swaps (package prices).
const TableTokenPrices = "token_prices"

// tokenPrices is migration 37. Each refresh writes one generation: the
// top mints by 24-hour volume, all with the same refreshed_at, ranked by
// volume. Readers take the generation they wrote (or the newest), so a
// mint that left the top is not served from an older one. Old
// generations expire: they are history, not state.
//
// The minmax index on token_swaps.block_time lets a refresh read only
// the granules of its window: block times grow with the slot the table
// is ordered by, so the index prunes as well as the key would.
func tokenPrices() []string {
	return []string{
		`ALTER TABLE token_swaps ADD INDEX IF NOT EXISTS block_time_mm block_time TYPE minmax GRANULARITY 1`,
		`ALTER TABLE token_swaps MATERIALIZE INDEX block_time_mm`,
		`CREATE TABLE IF NOT EXISTS token_prices (
			refreshed_at DateTime64(3, 'UTC'),
			rank UInt32,
			mint FixedString(32),
			price_usd Float64,
			volume_24h_usd Float64,
			swaps UInt64,
			traders UInt64,
			window_end DateTime('UTC')
		) ENGINE = MergeTree
		ORDER BY (refreshed_at, rank)
		TTL toDateTime(refreshed_at) + INTERVAL 7 DAY`,
	}
}
