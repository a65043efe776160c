package schema

// pendingSlot is migration 14: the pending spends (migration 13) are
// keyed by the slot of their spend first, so a step reads only the ones
// its range can resolve.
//
// An output is created at or before the slot that spends it. A range
// [from, to] can therefore only create the accounts of pending spends at
// slot from or later, and re-stepping it only finds again the ones it
// resolved, whose spend is also at from or later. Ordered by hash, the
// list was read whole by every step: an indexer started at a recent slot
// lists every spend of an account created before its start, unresolvable
// by any later range, and each step read all of them and looked them all
// up in compressed_accounts by hash, a set spread over every granule.
// Ordered by (spend_slot, hash), a step reads the key range from its
// first slot on: in forward ingest, nothing.
//
// spend_slot is the first slot the hash was spent at in compressed_spent,
// as the step's resolve computes it (spent_slot), so the resolved row
// replaces the pending one under the same key.
//
// Interrupted anywhere, the statements apply again from the start: the
// copy is redone from the list, which is always whole (the original or
// already the rebuilt table; the copy reads only the columns both have),
// and the swap is one RENAME of both tables.
func pendingSlot() []string {
	return []string{
		`DROP TABLE IF EXISTS ` + TableSpentPending + `_next`,
		`CREATE TABLE ` + TableSpentPending + `_next (
			spend_slot UInt64,
			hash FixedString(32) CODEC(NONE),
			resolved UInt8,
			resolved_slot UInt64
		) ENGINE = ReplacingMergeTree(resolved)
		ORDER BY (spend_slot, hash)`,
		`INSERT INTO ` + TableSpentPending + `_next (spend_slot, hash, resolved, resolved_slot)
			SELECT s.spend_slot, p.hash, p.resolved, p.resolved_slot
			FROM (SELECT hash, resolved, resolved_slot FROM ` + TableSpentPending + ` FINAL) AS p
			INNER JOIN (
				SELECT hash, min(slot) AS spend_slot FROM compressed_spent
				WHERE hash IN (SELECT hash FROM ` + TableSpentPending + `) GROUP BY hash
			) AS s USING (hash)`,
		`DROP TABLE IF EXISTS ` + TableSpentPending + `_old`,
		`RENAME TABLE ` + TableSpentPending + ` TO ` + TableSpentPending + `_old, ` +
			TableSpentPending + `_next TO ` + TableSpentPending,
		`DROP TABLE IF EXISTS ` + TableSpentPending + `_old`,
	}
}
