package schema

// TableStepSpent is the state step's scratch list of the accounts a slot
// range spent, resolved once per step (migration 8).
const TableStepSpent = "compressed_step_spent_accounts"

// spentOnce is migration 8: the state step resolves the accounts a range
// spent once, into a scratch table holding the columns its writes need
// (beside compressed_step_spent, the spent hashes), instead of reading
// every column of compressed_accounts with FINAL in each of its six spend
// writes. The read tables' spent rows now carry the
// keys, the token fields, lamports and slot_created; the other columns
// keep their defaults (every reader drops spent rows after FINAL, and
// compressed_accounts keeps the whole account).
func spentOnce() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS compressed_step_spent_accounts (
			hash FixedString(32),
			spent_slot UInt64,
			is_token Bool,
			owner FixedString(32),
			lamports UInt64,
			slot_created UInt64,
			token_owner FixedString(32),
			mint FixedString(32),
			amount UInt64,
			delegate Nullable(FixedString(32))
		) ENGINE = Memory`,
	}
}
