package schema

import "fmt"

// TableTokenLedgerApplied lists the token events a state step counted,
// each under the version of the step that counted it (migration 22).
const TableTokenLedgerApplied = "token_ledger_applied"

// narrowMarkers is migration 22: a step's markers, which say which events
// the balances count, leave token_ledger for a table of their own holding
// only the event's key and the version. A marker used to be the whole
// event written again (owner, mint and amount: 122 bytes a row against
// 49); narrow markers take about half the CPU to write (bin/dasch sql,
// docs/performance.md), and the ledger's merges no longer rewrite every
// event twice. A redo of a failed step
// reads the marked events' owner, mint and amount from token_ledger
// (outputs) and compressed_accounts (spends) instead.
//
// The markers stored before are carried over; they stay in token_ledger
// too, folded with their events, where the step's applied = 0 filter
// keeps skipping them.
func narrowMarkers() []string {
	return []string{
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
			slot UInt64,
			hash FixedString(32) CODEC(NONE),
			kind UInt8,
			applied UInt64
		) ENGINE = ReplacingMergeTree(applied)
		ORDER BY (slot, hash, kind)
		SETTINGS merge_selector_base = %d`, TableTokenLedgerApplied, MergeBase),
		`INSERT INTO ` + TableTokenLedgerApplied + ` (slot, hash, kind, applied)
			SELECT slot, hash, kind, applied FROM token_ledger FINAL WHERE applied > 0`,
	}
}
