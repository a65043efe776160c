package schema

// Tables of migration 6.
const (
	// TableTokenLedger lists the token spends the balances count (and
	// every output too, until migration 24).
	TableTokenLedger = "token_ledger"
	// TableStepEvents is the state step's scratch list of the events it
	// is adding to the balances.
	TableStepEvents = "compressed_step_events"
	// TableStepVersions records the state steps whose balance writes
	// completed.
	TableStepVersions = "compressed_step_versions"
)

// compressedLedger is migration 6: balances move from re-summing every
// account of each touched (owner, mint) to adding each token event once.
//
// token_ledger holds one row per event, ordered by slot so a state step
// reads its own range contiguously: an output created (kind 0, written
// by a view at insert with its owner, mint and amount) or an input spent
// (kind 1, written at insert without them: the spending transaction does
// not carry the spent account; the step resolves it). applied is 0 as
// inserted; the step that adds the event to the balances writes it again
// with applied = its version, which wins (ReplacingMergeTree(applied)),
// so re-ingesting or re-stepping never counts an event twice. Since
// migration 22 the markers are written to token_ledger_applied instead.
//
// The step's balance writes and its markers are separate inserts: the
// markers go first, and compressed_step_versions records the versions
// whose balance writes finished, so a step that failed in between is
// redone from its markers (see ingest/compressedstate).
//
// token_balances gains pair, a 128-bit digest of (owner, mint): the step
// finds the old balances of the pairs it changes by that one narrow
// column instead of two 32-byte keys.
//
// Existing data is carried over: every event already stored is marked
// applied with version 1 and the balances and holders are rebuilt from
// the accounts, so they equal the sum of the marked events.
func compressedLedger() []string {
	const zero = `toFixedString('', 32)`
	return []string{
		`CREATE TABLE IF NOT EXISTS token_ledger (
			slot UInt64,
			hash FixedString(32),
			kind UInt8,
			-- Whether the event changes a token balance: true for outputs;
			-- for spends, false until the step resolves a token account.
			token Bool,
			owner FixedString(32),
			mint FixedString(32),
			amount UInt64,
			applied UInt64
		) ENGINE = ReplacingMergeTree(applied)
		ORDER BY (slot, hash, kind)`,
		`CREATE TABLE IF NOT EXISTS compressed_step_versions (
			version UInt64,
			finished_at DateTime64(3, 'UTC') DEFAULT now64(3)
		) ENGINE = ReplacingMergeTree
		ORDER BY version`,
		`CREATE TABLE IF NOT EXISTS compressed_step_events (
			slot UInt64,
			hash FixedString(32),
			kind UInt8,
			token Bool,
			owner FixedString(32),
			mint FixedString(32),
			amount UInt64
		) ENGINE = Memory`,
		`CREATE TABLE IF NOT EXISTS compressed_step_deltas (
			owner FixedString(32),
			mint FixedString(32),
			pair FixedString(16),
			delta Int128
		) ENGINE = Memory`,
		`CREATE TABLE IF NOT EXISTS compressed_step_spent (
			hash FixedString(32)
		) ENGINE = Memory`,
		`ALTER TABLE token_balances ADD COLUMN IF NOT EXISTS pair FixedString(16)
			MATERIALIZED sipHash128Reference(concat(owner, mint))`,
		viewLedgerOutputs,
		`CREATE MATERIALIZED VIEW IF NOT EXISTS token_ledger_spends_mv TO token_ledger AS
			SELECT slot, hash, toUInt8(1) AS kind, false AS token,
				` + zero + ` AS owner, ` + zero + ` AS mint, toUInt64(0) AS amount, toUInt64(0) AS applied
			FROM compressed_spent`,
		// Carry-over of data stored before this migration.
		`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
			SELECT slot_created, hash, 0, true, token_owner, mint, amount, 1
			FROM compressed_accounts WHERE is_token`,
		`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
			SELECT slot, hash, 1, false, ` + zero + `, ` + zero + `, 0, 0 FROM compressed_spent`,
		`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
			SELECT s.slot, s.hash, 1, a.is_token, a.token_owner, a.mint, a.amount, 1
			FROM compressed_spent AS s
			INNER JOIN (SELECT hash, is_token, token_owner, mint, amount FROM compressed_accounts LIMIT 1 BY hash) AS a
			USING (hash)`,
		`INSERT INTO token_balances (owner, mint, balance, version)
			SELECT token_owner, mint, sum(if(hash IN (SELECT hash FROM compressed_spent), 0, amount)),
				(SELECT max(version) + 1 FROM token_balances)
			FROM (SELECT hash, token_owner, mint, amount FROM compressed_accounts WHERE is_token LIMIT 1 BY hash)
			GROUP BY token_owner, mint`,
		`TRUNCATE TABLE mint_holders`,
		`INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
			SELECT mint, balance, owner, version, 0 FROM token_balances FINAL`,
		seedStepVersion,
	}
}
