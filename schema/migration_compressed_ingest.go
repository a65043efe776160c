package schema

// TableStepChanges is the state step's scratch list of the balances a
// slot range changed, computed once per step and read by the holder and
// balance writes.
const TableStepChanges = "compressed_step_changes"

// viewAccountColumns are the compressedAccountColumns the read-path views
// copy from compressed_accounts: all but the signature. The views of
// migrations 5, 7 and 10 copied it too; a store migrated from before 15
// gets them without it (its default, zeros, fills the column until
// migration 15 drops it), and the statements still apply to a store
// already at 15, as re-running the migrations needs.
const viewAccountColumns = `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created,
		owner, lamports, address, discriminator, data, data_hash,
		is_token, mint, token_owner, amount, delegate, token_state, tlv`

// compressedIngest is migration 5: the per-row derivations of the
// compressed read paths move from the state step's INSERT…SELECT passes
// into materialized views on compressed_accounts, so every output reaches
// compressed_by_owner, token_accounts and token_accounts_by_delegate, as
// unspent, in the insert that stores it. The state step then writes only
// the spent rows (which replace these on merge or FINAL) and the balances.
func compressedIngest() []string {
	return []string{
		`CREATE MATERIALIZED VIEW IF NOT EXISTS compressed_by_owner_mv TO compressed_by_owner AS
			SELECT ` + viewAccountColumns + `, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts`,
		viewTokenAccounts,
		viewByDelegate,
		// Scratch, emptied at the start of each step that uses it: only one
		// state step runs at a time.
		`CREATE TABLE IF NOT EXISTS compressed_step_changes (
			owner FixedString(32),
			mint FixedString(32),
			new_balance UInt64,
			old_balance UInt64,
			had Bool
		) ENGINE = Memory`,
	}
}
