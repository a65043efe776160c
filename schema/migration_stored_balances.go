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
