package schema

// tokenGranules is migration 10: token_accounts is rebuilt with granules of
// 1,024 rows instead of 8,192.
//
// A page of one owner's token accounts reads, in every active part, the
// granule holding the owner's key range, for every column: with 8,192-row
// granules of rows some 300 bytes wide, a few megabytes decompressed per
// part for an owner holding a handful of accounts. 1,024-row granules make
// such an owner's first page faster and leave full pages unchanged (a
// 4M-account bench copy, docs/performance.md). index_granularity is fixed
// when a table is created (ALTER … MODIFY SETTING refuses it), hence the
// copy.
//
// Interrupted anywhere, the statements apply again from the start: the
// copy is dropped and redone from token_accounts, which is always whole
// (the original, or already the rebuilt table), and the swap is one
// RENAME of both tables.
//
// Version 9 was a migration withdrawn before release; it stays unused, so
// a store that applied it still gets this one.
func tokenGranules() []string {
	return []string{
		`DROP VIEW IF EXISTS token_accounts_mv`,
		`DROP TABLE IF EXISTS token_accounts_next`,
		// The same columns in the same order (SELECT * below copies by
		// position), a new engine clause.
		`CREATE TABLE token_accounts_next AS token_accounts
		ENGINE = ReplacingMergeTree(spent)
		ORDER BY (token_owner, mint, hash)
		SETTINGS index_granularity = 1024`,
		`INSERT INTO token_accounts_next SELECT * FROM token_accounts`,
		`DROP TABLE IF EXISTS token_accounts_old`,
		`RENAME TABLE token_accounts TO token_accounts_old, token_accounts_next TO token_accounts`,
		`DROP TABLE IF EXISTS token_accounts_old`,
		viewTokenAccounts,
	}
}
