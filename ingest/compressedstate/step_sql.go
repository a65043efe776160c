package compressedstate

import "github.com/dasch-labs/dasch/schema"

// The state step's statements. Every one is built from constants only;
// the slot range and the version come in as {name:Type} params.

// sqlSpentTouched lists, into the step's scratch table, the touched
// accounts that are spent: spends in the range, and outputs created in the
// range whose spend was indexed before them. The range's spends are read
// from the ledger, ordered by slot, by a key range (compressed_spent is
// ordered by hash: once its parts merge, its slot index skips nothing).
// Outputs spent before they were indexed are found through the pending
// list (migration 13): the primary key of compressed_accounts finds the
// few listed, never the range's every output. Of the list, only the
// spends at the range's first slot or later are read, by the list's key
// (migration 14): an output is created no later than its spend. Found
// once per step; the writes of spent rows read the list, and are skipped
// when it is empty.
const sqlSpentTouched = `INSERT INTO compressed_step_spent (hash)
SELECT hash FROM token_ledger WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} AND kind = 1
UNION DISTINCT
SELECT hash FROM compressed_accounts
PREWHERE slot_created BETWEEN {from:UInt64} AND {to:UInt64}
WHERE hash IN (SELECT hash FROM compressed_spent_pending FINAL
	WHERE spend_slot >= {from:UInt64} AND (NOT resolved OR resolved_slot BETWEEN {from:UInt64} AND {to:UInt64}))`

// sqlPendingAdd lists the range's spends that resolved to no indexed
// account, under the first slot each was spent at (as sqlSpentResolve's
// spent_slot); sqlPendingResolved marks those whose account this range
// created, at the account's slot and under the listed row's key, so a
// redo of the range finds them again. The list is read by its key: from
// the range's first slot on, for the range's resolved hashes only.
const (
	sqlPendingAdd = `INSERT INTO compressed_spent_pending (spend_slot, hash, resolved, resolved_slot)
SELECT min(slot), hash, 0, 0 FROM compressed_spent
WHERE hash IN (SELECT hash FROM compressed_step_spent WHERE hash NOT IN (SELECT hash FROM compressed_step_spent_accounts))
GROUP BY hash`
	sqlPendingResolved = `INSERT INTO compressed_spent_pending (spend_slot, hash, resolved, resolved_slot)
SELECT p.spend_slot, p.hash, 1, a.slot_created
FROM (SELECT spend_slot, hash FROM compressed_spent_pending
	WHERE spend_slot >= {from:UInt64} AND hash IN (SELECT hash FROM compressed_step_spent_accounts) AND NOT resolved) AS p
INNER JOIN compressed_step_spent_accounts AS a USING (hash)`
)

const (
	sqlClearSpent         = `TRUNCATE TABLE compressed_step_spent`
	sqlClearSpentAccounts = `TRUNCATE TABLE compressed_step_spent_accounts`
	sqlSpentCount         = `SELECT count() FROM compressed_step_spent`
	sqlResolvedCount      = `SELECT count() FROM compressed_step_spent_accounts`
)

// sqlSpentResolve reads the listed spent accounts from compressed_accounts
// once per step, with the first spend's slot, into the scratch table the
// spend writes below read. Only the columns they need are read: the rows
// are found by hash, and a range's spends hit granules all over the
// table, so every column read is a column scanned. It replaced five reads
// of every column with FINAL, one per write, and a sixth in the ledger's
// spends, several times slower (a 4M-account bench store,
// docs/performance.md). Accounts are immutable, so any copy of a
// re-ingested one serves (LIMIT 1 BY). A spend whose account is not
// indexed yet is left out and listed as
// pending: its output's step finds it (sqlSpentTouched's second half).
const sqlSpentResolve = `INSERT INTO compressed_step_spent_accounts
	(hash, spent_slot, is_token, owner, lamports, slot_created, token_owner, mint, amount, delegate)
WITH ` + spentCTE + `
SELECT hash, spent_slot, is_token, owner, lamports, slot_created, token_owner, mint, amount, delegate
FROM (SELECT hash, min(slot) AS spent_slot FROM compressed_spent WHERE hash IN spent_touched GROUP BY hash) AS s
INNER JOIN (
	SELECT hash, is_token, owner, lamports, slot_created, token_owner, mint, amount, delegate
	FROM compressed_accounts WHERE hash IN spent_touched LIMIT 1 BY hash
) AS a USING (hash)`

// spentCTE names the step's spent touched accounts.
const spentCTE = `spent_touched AS (SELECT hash FROM compressed_step_spent)`

// joinSettings pins the LEFT JOIN semantics the statements rely on:
// unmatched right columns read as their defaults (false, 0), not NULL.
const joinSettings = ` SETTINGS join_use_nulls = 0`

// spentColumns are the columns a spent row of a read table carries: the
// read table's key, the token fields, lamports and slots. The rest keep
// their defaults: every reader drops spent rows after FINAL, and
// compressed_accounts holds the whole account.
const spentColumns = `hash, owner, is_token, lamports, slot_created, token_owner, mint, amount, delegate, spent, spent_slot`

// Rewrite the spent accounts into their read tables. The materialized
// views of migration 5 wrote every output there as unspent when it was
// stored; the spent row wins over it (ReplacingMergeTree(spent)).
const (
	sqlByOwner = `INSERT INTO compressed_by_owner (` + spentColumns + `)
SELECT ` + spentColumns + ` FROM (SELECT *, true AS spent FROM compressed_step_spent_accounts WHERE NOT is_token)`

	sqlTokenAccounts = `INSERT INTO token_accounts (` + spentColumns + `)
SELECT ` + spentColumns + ` FROM (SELECT *, true AS spent FROM compressed_step_spent_accounts WHERE is_token)`

	sqlByDelegate = `INSERT INTO token_accounts_by_delegate (` + spentColumns + `, delegate_key)
SELECT ` + spentColumns + `, assumeNotNull(delegate) FROM (SELECT *, true AS spent FROM compressed_step_spent_accounts
WHERE is_token AND delegate IS NOT NULL)`
)

// The transaction rows of spends: the owner comes from the spent
// account, which the decoder of the spending transaction could not see.
// The spend's transaction is named by its slot and signature prefix, as
// the decoder names the creating ones (schema.SigPrefix).
const (
	spendTxs = `FROM (SELECT hash, slot, ` + schema.SigPrefixOfSignature + ` AS sig_prefix FROM compressed_spent FINAL
	WHERE hash IN (SELECT hash FROM compressed_step_spent_accounts)) AS s
INNER JOIN compressed_step_spent_accounts AS a USING (hash)`
	sqlSpendOwnerSigs = `INSERT INTO owner_txs (owner, slot, sig_prefix)
SELECT a.owner, s.slot, s.sig_prefix ` + spendTxs

	sqlSpendTokenOwnerSigs = `INSERT INTO token_owner_txs (owner, slot, sig_prefix)
SELECT a.token_owner, s.slot, s.sig_prefix ` + spendTxs + `
WHERE a.is_token`
)

// sqlClearEvents empties the step's event list before a step fills it.
const sqlClearEvents = `TRUNCATE TABLE compressed_step_events`

// sqlOutputEvents and sqlSpendEvents list, into the step's scratch
// table, the token events the balances do not count yet: those without a
// marker in token_ledger_applied, which is ordered by slot, so the
// range's markers are read by a key range.
//
// Outputs: the token accounts created in the range, read from
// compressed_accounts (migration 24: the ledger no longer holds a second
// copy of each). Its slot_mm index skips every granule outside the
// range: a part starts as one insert's few slots, and the step reads the
// range right after its parts are committed. FINAL folds re-indexed
// copies of an account (TestMarkersFoldUnmerged keeps them in separate
// parts and fails without it); the copies are equal, so filtering on the
// slot before folding keeps the same rows, and every copy's granule is
// among those the index selects. So the engine's exact mode, which adds
// every granule whose key range meets a selected one (for versions
// that differ in the indexed column), is turned off: with it, the
// range's random hashes met every granule of the table, and a live slot's
// outputs took more than twice as long to list. Reading outputs here
// rather than from the ledger costs somewhat more on a large range, and
// most on a range whose parts have merged (a backfill's re-step): hash
// order spreads its rows over every granule, so slot_created of those
// parts is read whole (figures in docs/performance.md).
// The markers' set is kept out of the index analysis
// (use_index_for_in_with_subqueries = 0): a NOT IN prunes no granule of a
// table in hash order, but the engine still checked the set against every
// granule of every part, which grew with the store: without it a new
// slot's outputs are listed in about half the time on a kept 20M bench
// store (docs/performance.md).
const sqlOutputEvents = `INSERT INTO compressed_step_events (slot, hash, kind, token, owner, mint, amount)
SELECT slot_created, hash, 0, true, token_owner, mint, amount
FROM compressed_accounts FINAL
PREWHERE slot_created BETWEEN {from:UInt64} AND {to:UInt64}
WHERE is_token
	AND (slot_created, hash) NOT IN (SELECT slot, hash FROM ` + schema.TableTokenLedgerApplied + `
		WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} AND kind = 0)
SETTINGS use_skip_indexes_if_final_exact_mode = 0, use_index_for_in_with_subqueries = 0`

// Spends: those of the range, and those of the range's outputs that were
// indexed (at a later slot) before them, found through the step's spent
// list (compressed_step_spent): a key lookup of the few spent hashes, not
// of every output of the range. A spend carries no account: it takes
// the one sqlSpentResolve found; a spend whose account is not indexed yet
// is left out and counted with its output. A resolved spend of a
// non-token account is listed (token false) only to be marked. FINAL
// folds re-indexed copies of a spend; before migration 22 it also folded
// each spend with its marker, which applied = 0 still skips. The step
// skips this statement when it resolved no spent account: then the range
// has no spend to count.
const sqlSpendEvents = `INSERT INTO compressed_step_events (slot, hash, kind, token, owner, mint, amount)
WITH fresh AS (
	SELECT slot, hash FROM token_ledger FINAL
	WHERE kind = 1 AND applied = 0 AND ` + spendKeys + `
		AND (slot, hash) NOT IN (SELECT slot, hash FROM ` + schema.TableTokenLedgerApplied + ` WHERE kind = 1 AND ` + spendKeys + `)
)
SELECT f.slot, f.hash, 1, a.is_token, a.token_owner, a.mint, a.amount
FROM fresh AS f
INNER JOIN compressed_step_spent_accounts AS a USING (hash)`

// spendKeys selects, by the (slot, hash) key of the ledger and of its
// markers, the spends a step counts: see sqlSpendEvents.
const spendKeys = `(slot BETWEEN {from:UInt64} AND {to:UInt64} OR (slot, hash) IN (
		SELECT slot, hash FROM compressed_spent WHERE hash IN (SELECT hash FROM compressed_step_spent)))`

// onePart makes each of a step's writes to a stored table one part, up to
// 512 MiB of rows, instead of one part per million rows (the engine's
// default squashing of an INSERT SELECT: 1,048,449 rows, so two parts at
// TestStepWritesOnePart's 1.2M and three at a 20M backfill's steps of
// 2.9M events). Merging those parts of token_ledger_applied,
// token_balances and mint_holders ran beside the ingest and slowed it
// (stopped 20M bench runs, docs/performance.md). A live slot's
// writes are far below either limit.
const onePart = `min_insert_block_size_rows = 100000000, min_insert_block_size_bytes = 536870912`

// sqlMark marks the listed events as counted by this step. It is one
// insert, so a step's markers are stored all or none, before its balance
// writes: a step failing after it is redone from the markers.
const sqlMark = `INSERT INTO ` + schema.TableTokenLedgerApplied + ` (slot, hash, kind, applied)
SELECT slot, hash, kind, {version:UInt64} FROM compressed_step_events
SETTINGS ` + onePart

// sqlDeltas and sqlRedoneDeltas sum, into the step's scratch table, the
// counted events per (owner, mint), with the pair's digest: from the
// step's event list, or, when a failed step is redone, from the events
// its markers name, each with the account it created or spent, read from
// compressed_accounts by hash (accounts are immutable: any copy serves,
// and an output's hash names its slot, so the marker's hash alone finds
// it).
// A redo is rare.
// They group by owner ‖ mint as one 64-byte key, split after: grouping
// by the two columns goes through keys serialized into an arena, which
// was slower and far less steady; grouping by the digest with any(owner)
// and any(mint) was slower still (bin/dasch sql, docs/performance.md).
const (
	deltasPrefix = `INSERT INTO compressed_step_deltas (owner, mint, pair, delta)
SELECT toFixedString(substring(om, 1, 32), 32), toFixedString(substring(om, 33, 32), 32), sipHash128Reference(om), delta
FROM (SELECT toFixedString(concat(owner, mint), 64) AS om, sum(if(kind = 0, toInt128(amount), -toInt128(amount))) AS delta
FROM `
	deltasSuffix    = ` WHERE token GROUP BY om)`
	sqlDeltas       = deltasPrefix + `compressed_step_events` + deltasSuffix
	sqlRedoneDeltas = deltasPrefix + `(
	SELECT toUInt8(0) AS kind, is_token AS token, token_owner AS owner, mint, amount FROM compressed_accounts
	WHERE hash IN (SELECT hash FROM ` + schema.TableTokenLedgerApplied + ` WHERE applied = {version:UInt64} AND kind = 0)
	LIMIT 1 BY hash
	UNION ALL
	SELECT 1 AS kind, a.is_token AS token, a.token_owner AS owner, a.mint AS mint, a.amount AS amount
	FROM (SELECT hash FROM ` + schema.TableTokenLedgerApplied + ` FINAL WHERE applied = {version:UInt64} AND kind = 1) AS m
	INNER JOIN (SELECT hash, is_token, token_owner, mint, amount FROM compressed_accounts
		WHERE hash IN (SELECT hash FROM ` + schema.TableTokenLedgerApplied + ` WHERE applied = {version:UInt64} AND kind = 1)
		LIMIT 1 BY hash) AS a USING (hash))` + deltasSuffix
)

// sqlChanges lists, into the step's scratch table, the (owner, mint)
// pairs whose balance the step's events change (or that have none yet):
// the balance stored before this version plus the events' sum. The old
// balances are found by the 16-byte pair digest, one narrow column, read
// alone first: left to choose, the engine puts both conditions in one
// prewhere (EXPLAIN actions=1) and the lookup took 3x as long
// (docs/performance.md). It is computed once per
// step; the holder and balance writes both read it. The step uses it when
// it keeps no copy of the balances (balanceCache) and to redo a failed
// step.
const (
	changesHead = `INSERT INTO compressed_step_changes (owner, mint, pair, new_balance, old_balance, had)
WITH stored AS (`
	changesTail = `)
SELECT owner, mint, pair, toUInt64(toInt128(old_balance) + delta), old_balance, had
FROM compressed_step_deltas AS d LEFT JOIN stored AS o USING (pair)
WHERE NOT had OR delta != 0` + joinSettings
	sqlChanges = changesHead + `
	SELECT pair, argMax(balance, version) AS old_balance, true AS had
	FROM token_balances
	PREWHERE pair IN (SELECT pair FROM compressed_step_deltas)
	WHERE version < {version:UInt64}
	GROUP BY pair` + changesTail
	// sqlChangesCached takes the old balances the step's in-memory copy
	// found (balanceCache.apply) instead of scanning token_balances.
	sqlChangesCached = changesHead + `SELECT pair, old_balance, true AS had FROM ` + schema.TableStepStored + changesTail
)

// The scratch tables are emptied before a step fills them.
const (
	sqlClearChanges = `TRUNCATE TABLE compressed_step_changes`
	sqlClearDeltas  = `TRUNCATE TABLE compressed_step_deltas`
)

// sqlFinished records that the balance writes of a version completed.
const sqlFinished = `INSERT INTO compressed_step_versions (version) VALUES ({version:UInt64})`

// sqlUnfinished finds the newest version whose markers are stored
// without its balance writes having finished, or 0.
const sqlUnfinished = `SELECT if(m > f, m, 0) FROM (SELECT
	(SELECT max(applied) FROM ` + schema.TableTokenLedgerApplied + `) AS m,
	(SELECT max(version) FROM compressed_step_versions) AS f)`

// sqlHolders moves each changed pair in mint_holders: a tombstone for the
// old (mint, balance, owner) key, a live row for the new one. It runs
// beside sqlBalances: if one fails, the step is redone from its markers,
// and the redo finds the old balances below its version (sqlChanges),
// whether or not the other's rows were stored. Two reads of
// the scratch list, not an ARRAY JOIN over a per-row array of tuples,
// which was slower (a throwaway test, docs/performance.md).
const sqlHolders = `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
SELECT mint, new_balance, owner, {version:UInt64}, toUInt8(0) FROM compressed_step_changes
UNION ALL
SELECT mint, old_balance, owner, {version:UInt64}, toUInt8(1) FROM compressed_step_changes WHERE had
SETTINGS ` + onePart

// sqlBalances writes the pair digest the deltas computed (migration 23)
// into token_balances.pair, which would otherwise compute it again, a
// quarter of the insert's time (a throwaway test, docs/performance.md).
const sqlBalances = `INSERT INTO token_balances (owner, mint, pair, balance, version)
SELECT owner, mint, pair, new_balance, {version:UInt64} FROM compressed_step_changes
SETTINGS insert_allow_materialized_columns = 1, ` + onePart

// sqlTouchedAny tells whether the range touched any account at all: an
// output created in it or a spend in it. It stops at the first of each,
// where counting every touched hash of a large range cost far more
// (bin/dasch sql, docs/performance.md).
const sqlTouchedAny = `SELECT
	(SELECT count() FROM (SELECT 1 FROM compressed_accounts WHERE slot_created BETWEEN {from:UInt64} AND {to:UInt64} LIMIT 1)) +
	(SELECT count() FROM (SELECT 1 FROM compressed_spent WHERE slot BETWEEN {from:UInt64} AND {to:UInt64} LIMIT 1))`
