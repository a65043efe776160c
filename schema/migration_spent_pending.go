package schema

// TableSpentPending lists the spends whose account was not indexed when
// their slot range was stepped (migration 13).
const TableSpentPending = "compressed_spent_pending"

// spentPending is migration 13: the state step finds the spends indexed
// before their outputs through a list of them instead of through every
// output of the range.
//
// A spend whose account is not indexed when its range is stepped is
// counted when the account's own range is. The step used to find those by
// reading, for each range, the hashes of every account created in it and
// looking them up among the spends: compressed_accounts is ordered by
// hash, so once parts merge, a slot range is spread over every granule
// and the slot_created column was read whole on every step, a cost that
// grew with the store (docs/performance.md). Now the step writes
// such a spend here (resolved = 0) and, when a later range creates its
// account, writes it again as resolved at that range's slot: the newer
// row wins. Re-stepping that range finds it again by resolved_slot, so a
// step that failed is redone the same.
//
// Existing stores list every spend without an indexed account.
func spentPending() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + TableSpentPending + ` (
			hash FixedString(32) CODEC(NONE),
			resolved UInt8,
			resolved_slot UInt64
		) ENGINE = ReplacingMergeTree(resolved)
		ORDER BY hash`,
		`INSERT INTO ` + TableSpentPending + ` (hash, resolved, resolved_slot)
			SELECT DISTINCT hash, 0, 0 FROM compressed_spent
			WHERE hash NOT IN (SELECT hash FROM compressed_accounts)`,
	}
}
