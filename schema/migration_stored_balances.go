package schema

// TableStepStored is the state step's scratch list of the old balances
// of the pairs a step changes, as its in-memory copy of the balances
// found them (migration 20).
const TableStepStored = "compressed_step_stored"

// storedBalances is migration 20: the scratch table through which the
// state step hands the old balances it keeps in memory to its SQL,
// instead of scanning token_balances.pair for them every step.
func storedBalances() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + TableStepStored + ` (
			pair FixedString(16),
			old_balance UInt64
		) ENGINE = Memory`,
	}
}

// changePairs is migration 23: the step's list of balance changes
// carries each pair's digest, computed once with the deltas, so the
// balance write stores it instead of token_balances computing it again
// (its MATERIALIZED expression). The list is scratch, emptied every step.
func changePairs() []string {
	return []string{
		`ALTER TABLE ` + TableStepChanges + ` ADD COLUMN IF NOT EXISTS pair FixedString(16) AFTER mint`,
	}
}
