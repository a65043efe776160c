package schema

// TableStepBalances is the state step's in-memory index of the stored
// balances by pair (migration 9).
const TableStepBalances = "compressed_step_balances"

// balancePairs is migration 9: the state step finds the old balances of
// the pairs it changes in a hash table held by the engine (a Join table
// keyed by the pair digest) instead of scanning token_balances.pair on
// every step, a scan that grows with the whole state. The table is not
// persistent: the step fills it from token_balances when it starts, or
// when it finds it emptied, and adds each step's new balances to it; the
// newest row of a pair wins (join_any_take_last_row).
func balancePairs() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + TableStepBalances + ` (
			pair FixedString(16),
			balance UInt64,
			had Bool
		) ENGINE = Join(ANY, LEFT, pair) SETTINGS join_any_take_last_row = 1, persistent = 0`,
	}
}
