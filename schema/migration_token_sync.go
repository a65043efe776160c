package schema

// tokenSync is migration 11: a minmax skip index on the slot a
// token_accounts row became true at (its output's slot, or its spend's
// when that is later), so the in-memory token account index can poll the
// rows of newly indexed slots without scanning the table.
//
// Rows reach token_accounts in slot order (outputs through the view as
// they are stored, spent rows from the state step of their range), so a
// part holds a narrow slot range and merges only combine older parts: a
// poll for the slots after the last one it saw skips every granule of
// every part merged before then. MATERIALIZE INDEX builds the index of
// existing parts in the background; until it has, they are read whole.
func tokenSync() []string {
	return []string{
		`ALTER TABLE token_accounts ADD INDEX IF NOT EXISTS sync_mm greatest(slot_created, spent_slot) TYPE minmax GRANULARITY 1`,
		`ALTER TABLE token_accounts MATERIALIZE INDEX sync_mm`,
	}
}
