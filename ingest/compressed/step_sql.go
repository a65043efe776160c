package compressed

// The state step's statements. Every one is built from constants only;
// the slot range and the version come in as {name:Type} params.

// touchedCTE names the accounts a slot range touched: outputs created in
// it and outputs whose hash was spent in it (the spend may be indexed
// before or after its output; both sides find it).
const touchedCTE = `touched AS (
	SELECT hash FROM compressed_accounts WHERE slot_created BETWEEN {from:UInt64} AND {to:UInt64}
	UNION DISTINCT
	SELECT hash FROM compressed_spent WHERE slot BETWEEN {from:UInt64} AND {to:UInt64}
)`

// spentCTE names the touched accounts that are spent: spends in the range,
// and outputs created in the range whose spend was indexed before them.
// The primary key of compressed_spent serves the second half.
const spentCTE = `spent_touched AS (
	SELECT hash FROM compressed_spent WHERE slot BETWEEN {from:UInt64} AND {to:UInt64}
	UNION DISTINCT
	SELECT hash FROM compressed_spent
	WHERE hash IN (SELECT hash FROM compressed_accounts WHERE slot_created BETWEEN {from:UInt64} AND {to:UInt64})
)`

// accountColumns are the columns compressed_accounts shares with the
// derived account tables.
const accountColumns = `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created, signature,
	owner, lamports, address, discriminator, data, data_hash,
	is_token, mint, token_owner, amount, delegate, token_state, tlv`

// spentAccounts is a FROM clause yielding the spent touched accounts with
// spent_slot, the slot of their first spend.
const spentAccounts = `(SELECT ` + accountColumns + ` FROM compressed_accounts FINAL WHERE hash IN spent_touched) AS a
	INNER JOIN (SELECT hash, min(slot) AS spent_slot FROM compressed_spent WHERE hash IN spent_touched GROUP BY hash) AS s
	USING (hash)`

// joinSettings pins the LEFT JOIN semantics the statements rely on:
// unmatched right columns read as their defaults (false, 0), not NULL.
const joinSettings = ` SETTINGS join_use_nulls = 0`

// Rewrite the spent accounts into their read tables. The materialized
// views of migration 5 wrote every output there as unspent when it was
// stored; the spent row wins over it (ReplacingMergeTree(spent)).
const (
	sqlByOwner = `INSERT INTO compressed_by_owner (` + accountColumns + `, spent, spent_slot)
WITH ` + spentCTE + `
SELECT ` + accountColumns + `, true, spent_slot FROM ` + spentAccounts

	sqlTokenAccounts = `INSERT INTO token_accounts (` + accountColumns + `, spent, spent_slot)
WITH ` + spentCTE + `
SELECT ` + accountColumns + `, true, spent_slot FROM ` + spentAccounts + `
WHERE is_token`

	sqlByDelegate = `INSERT INTO token_accounts_by_delegate (` + accountColumns + `, delegate_key, spent, spent_slot)
WITH ` + spentCTE + `
SELECT ` + accountColumns + `, assumeNotNull(delegate) AS delegate_key, true, spent_slot FROM ` + spentAccounts + `
WHERE is_token AND delegate IS NOT NULL`
)

// The signature rows of spends: the owner comes from the spent account,
// which the decoder of the spending transaction could not see.
const (
	sqlSpendOwnerSigs = `INSERT INTO owner_signatures (owner, slot, signature, block_time)
WITH ` + spentCTE + `
SELECT owner, slot, signature, block_time
FROM (SELECT hash, slot, signature, block_time FROM compressed_spent FINAL WHERE hash IN spent_touched) AS s
INNER JOIN (SELECT hash, owner FROM compressed_accounts FINAL WHERE hash IN spent_touched) AS a USING (hash)`

	sqlSpendTokenOwnerSigs = `INSERT INTO token_owner_signatures (owner, slot, signature, block_time)
WITH ` + spentCTE + `
SELECT owner, slot, signature, block_time
FROM (SELECT hash, slot, signature, block_time FROM compressed_spent FINAL WHERE hash IN spent_touched) AS s
INNER JOIN (SELECT hash, token_owner AS owner FROM compressed_accounts FINAL WHERE hash IN spent_touched AND is_token) AS a USING (hash)`
)

// sqlChanges lists, into the step's scratch table, the (owner, mint) pairs
// the range touched whose balance differs from token_balances (or that
// have none yet): new_balance is the sum over the pair's unspent token
// accounts, old_balance the stored one. It is computed once per step; the
// holder and balance writes both read it.
const sqlChanges = `INSERT INTO compressed_step_changes (owner, mint, new_balance, old_balance, had)
WITH ` + touchedCTE + `,
pairs AS (SELECT DISTINCT token_owner, mint FROM compressed_accounts WHERE hash IN touched AND is_token),
fresh AS (
	SELECT token_owner AS owner, mint, sum(if(spent, 0, amount)) AS new_balance
	FROM token_accounts FINAL WHERE (token_owner, mint) IN pairs
	GROUP BY token_owner, mint
),
stored AS (
	SELECT owner, mint, balance AS old_balance, true AS had
	FROM token_balances FINAL WHERE (owner, mint) IN pairs
)
SELECT owner, mint, new_balance, old_balance, had
FROM fresh AS f LEFT JOIN stored AS o USING (owner, mint)
WHERE NOT had OR old_balance != new_balance` + joinSettings

// sqlClearChanges empties the scratch table before a step fills it.
const sqlClearChanges = `TRUNCATE TABLE compressed_step_changes`

// sqlHolders moves each changed pair in mint_holders: a tombstone for the
// old (mint, balance, owner) key, a live row for the new one. It runs
// before sqlBalances, which overwrites the old balances, so a failure
// between the two is repaired by applying the range again.
const sqlHolders = `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
SELECT mint, entry.1 AS balance, owner, {version:UInt64} AS version, entry.2 AS is_deleted
FROM compressed_step_changes
ARRAY JOIN if(had, [(old_balance, toUInt8(1)), (new_balance, toUInt8(0))], [(new_balance, toUInt8(0))]) AS entry`

const sqlBalances = `INSERT INTO token_balances (owner, mint, balance, version)
SELECT owner, mint, new_balance, {version:UInt64} FROM compressed_step_changes`

// sqlTouchedAny tells whether the range touched any account at all.
const sqlTouchedAny = `WITH ` + touchedCTE + ` SELECT count() FROM touched`
