package schema

// TableTokenSwaps holds every swap leg the parser recognised.
const TableTokenSwaps = "token_swaps"

// tokenSwaps is migration 36: one row per swap a transaction made (a
// route's legs each a row, leg 0 the whole route as the user saw it), the
// amounts raw with their decimals. Prices and volumes are aggregates over
// a recent range of slots, so the key starts with the slot; re-ingesting
// a slot replaces identical rows.
func tokenSwaps() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS token_swaps (
			slot UInt64,
			tx_index UInt32,
			signature FixedString(64),
			leg UInt16,
			block_time Int64,
			protocol LowCardinality(String),
			program_id FixedString(32),
			user FixedString(32),
			input_mint FixedString(32),
			output_mint FixedString(32),
			in_amount UInt64,
			out_amount UInt64,
			input_decimals UInt8,
			output_decimals UInt8
		) ENGINE = ReplacingMergeTree
		ORDER BY (slot, tx_index, signature, leg)`,
	}
}
