package schema

// The materialized views on compressed_accounts as they stand: each
// migration that makes one (migrations 5, 6, 7, 10 and 21, the last
// rebuilding the table under them) uses these, so a view is defined once.
// Migration 5 made compressed_by_owner_mv without the filter migration 7
// added; it keeps its own statement.
const (
	viewByOwner = `CREATE MATERIALIZED VIEW IF NOT EXISTS compressed_by_owner_mv TO compressed_by_owner AS
			SELECT ` + viewAccountColumns + `, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE NOT is_token`
	viewTokenAccounts = `CREATE MATERIALIZED VIEW IF NOT EXISTS token_accounts_mv TO token_accounts AS
			SELECT ` + viewAccountColumns + `, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE is_token`
	viewByDelegate = `CREATE MATERIALIZED VIEW IF NOT EXISTS token_accounts_by_delegate_mv TO token_accounts_by_delegate AS
			SELECT ` + viewAccountColumns + `, assumeNotNull(delegate) AS delegate_key, false AS spent, toUInt64(0) AS spent_slot
			FROM compressed_accounts WHERE is_token AND delegate IS NOT NULL`
	viewLedgerOutputs = `CREATE MATERIALIZED VIEW IF NOT EXISTS token_ledger_outputs_mv TO token_ledger AS
			SELECT slot_created AS slot, hash, toUInt8(0) AS kind, true AS token,
				token_owner AS owner, mint, amount, toUInt64(0) AS applied
			FROM compressed_accounts WHERE is_token`
)
