package schema

// TableSolBalances holds the newest known lamports of every address that
// an indexed transaction named, for showNativeBalance.
const TableSolBalances = "sol_balances"

// solBalances is migration 31: each indexed transaction files the
// post-balance of each account it names. Ordered by address alone and
// replaced by (slot, position in the block), so merges keep the newest
// balance of an address and a read is one keyed lookup; argMax by version
// gives the newest before merges have run, in any indexing order.
func solBalances() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS sol_balances (
			address FixedString(32),
			slot UInt64,
			tx_index UInt32,
			lamports UInt64,
			version UInt64 DEFAULT bitShiftLeft(slot, 24) + tx_index
		) ENGINE = ReplacingMergeTree(version)
		ORDER BY address
		SETTINGS index_granularity = 256`,
	}
}
