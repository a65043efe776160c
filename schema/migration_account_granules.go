package schema

import "fmt"

// accountGranules is migration 21: compressed_accounts is rebuilt with
// granules of 1,024 rows instead of 8,192.
//
// The table is read by hash: the state step resolves every spend to its
// account (nine columns), and the API looks accounts up by hash. Each
// looked-up hash reads, in every active part, one granule of every column
// it needs: 8,192 rows of some 150 bytes for one account. A live slot's
// 100 spends at 20M accounts spent 95–184 ms there. On a 5M-row copy in
// 8 parts, 100 hashes looked up took 115–165 ms with 8,192-row granules
// and 50–65 ms with 1,024 (bin/dasch sql, its ~195 ms start subtracted).
// index_granularity is fixed when a table is created, hence the copy, as
// migration 10 did for token_accounts.
//
// The four views reading compressed_accounts are dropped first and made
// again on the rebuilt table, as they stand (views.go). Interrupted anywhere, the statements apply again from the start:
// the copy is redone from compressed_accounts, which is always whole, and
// the swap is one RENAME of both tables.
func accountGranules() []string {
	return []string{
		`DROP VIEW IF EXISTS compressed_by_owner_mv`,
		`DROP VIEW IF EXISTS token_accounts_mv`,
		`DROP VIEW IF EXISTS token_accounts_by_delegate_mv`,
		`DROP VIEW IF EXISTS token_ledger_outputs_mv`,
		`DROP TABLE IF EXISTS compressed_accounts_next`,
		// The same columns, codecs and indexes (SELECT * below copies by
		// position), a new engine clause.
		`CREATE TABLE compressed_accounts_next AS compressed_accounts
		ENGINE = ReplacingMergeTree
		ORDER BY hash
		SETTINGS index_granularity = 1024, merge_selector_base = ` + fmt.Sprint(MergeBase),
		`INSERT INTO compressed_accounts_next SELECT * FROM compressed_accounts`,
		`DROP TABLE IF EXISTS compressed_accounts_old`,
		`RENAME TABLE compressed_accounts TO compressed_accounts_old, compressed_accounts_next TO compressed_accounts`,
		`DROP TABLE IF EXISTS compressed_accounts_old`,
		viewByOwner,
		viewTokenAccounts,
		viewByDelegate,
		viewLedgerOutputs,
	}
}
