package schema

// ledgerSpendsOnly is migration 24: token_ledger stops holding outputs.
// Every token output was written twice, whole in compressed_accounts and
// again in the ledger by token_ledger_outputs_mv, only for the state step
// to read a slot range of them back; the step now reads the range from
// compressed_accounts itself (its slot_mm index skips every granule
// outside a fresh part's few slots). The ledger keeps the spends, which
// carry no account of their own; the markers in token_ledger_applied
// are unchanged, keyed (slot, hash, kind) as before.
//
// The outputs the view wrote are deleted: nothing reads them any more.
// A mutation, not a lightweight delete, so their space is freed when it
// ends rather than at the parts' next merges (the ledger was a large
// share of the store on disk, docs/performance.md). Both statements apply
// again cleanly.
func ledgerSpendsOnly() []string {
	return []string{
		`DROP VIEW IF EXISTS token_ledger_outputs_mv`,
		`ALTER TABLE ` + TableTokenLedger + ` DELETE WHERE kind = 0 SETTINGS mutations_sync = 2`,
	}
}
