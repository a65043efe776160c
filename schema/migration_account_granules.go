package schema

import "fmt"

// accountGranules is migration 21: compressed_accounts is rebuilt with
// granules of 1,024 rows instead of 8,192.
//
// The table is read by hash: the state step resolves every spend to its
// account (nine columns), and the API looks accounts up by hash. Each
// looked-up hash reads, in every active part, one granule of every column
// it needs: 8,192 rows of some 150 bytes for one account, which made the
// live slot's spends slow to resolve; 1,024-row granules halve a batch of
// lookups (bin/dasch sql on a 5M-row copy, docs/performance.md).
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
