package schema

import (
	"fmt"
	"strings"
)

// KeyPrefix is the SQL of the sort key expression that leads the tables of
// migration 24 (sortPrefixKeys): the first 8 bytes of the FixedString key
// column col as a big-endian UInt64. It orders as those bytes do, so a
// table ordered by (KeyPrefix(col), col, ...) keeps its rows in the order
// of (col, ...). A reader that finds rows by col names the prefix too
// (KeyPrefixEquals), or the primary key cannot narrow the read: the
// engine derives no condition on the expression from one on col. The
// minmax index on col that the migration adds narrows such a read
// anyway (the rows are in col's order), for SQL that does not.
func KeyPrefix(col string) string {
	return fmt.Sprintf("reinterpretAsUInt64(reverse(substring(%s, 1, 8)))", col)
}

// KeyPrefixEquals is the condition that col equals value (SQL of a
// FixedString(32)), with the key prefix named first.
func KeyPrefixEquals(col, value string) string {
	return KeyPrefix(col) + " = " + KeyPrefix(value) + " AND " + col + " = " + value
}

// KeyPrefixRange is the condition that col lies in [lo, hi) (SQL of
// FixedString(32) values; an empty one leaves that side open), with the
// key prefix bounded first: the prefix of hi itself stays in, since a
// value below hi may share it.
func KeyPrefixRange(col, lo, hi string) string {
	var conds []string
	if lo != "" {
		conds = append(conds, KeyPrefix(col)+" >= "+KeyPrefix(lo), col+" >= "+lo)
	}
	if hi != "" {
		conds = append(conds, KeyPrefix(col)+" <= "+KeyPrefix(hi), col+" < "+hi)
	}
	return strings.Join(conds, " AND ")
}

// prefixKeyTable is one table migration 24 rebuilds.
type prefixKeyTable struct {
	name, col string
	// rest is the sort key after col; engine and settings are those the
	// table had.
	rest, engine, settings string
	// view is the CREATE statement of the materialized view writing the
	// table, if one does: it is dropped before the swap and made again
	// after it, as migration 10 does.
	view, viewName string
}

// prefixKeyTables are the tables ordered first by a FixedString(32) of
// thousands to millions of distinct values: an owner, a mint or a
// delegate.
func prefixKeyTables() []prefixKeyTable {
	mergeBase := fmt.Sprintf("SETTINGS merge_selector_base = %d", MergeBase)
	return []prefixKeyTable{
		{name: TableOwnerTxs, col: "owner", rest: "slot, sig_prefix", engine: "ReplacingMergeTree", settings: mergeBase},
		{name: TableTokenOwnerTxs, col: "owner", rest: "slot, sig_prefix", engine: "ReplacingMergeTree", settings: mergeBase},
		{name: TableTokenBalances, col: "owner", rest: "mint", engine: "ReplacingMergeTree(version)"},
		{name: TableMintHolders, col: "mint", rest: "balance, owner", engine: "ReplacingMergeTree(version, is_deleted)"},
		{name: TableTokenAccounts, col: "token_owner", rest: "mint, hash", engine: "ReplacingMergeTree(spent)",
			settings: mergeBase + ", index_granularity = 1024", view: viewTokenAccounts, viewName: "token_accounts_mv"},
		{name: TableTokenByDelegate, col: "delegate_key", rest: "mint, hash", engine: "ReplacingMergeTree(spent)",
			settings: mergeBase, view: viewByDelegate, viewName: "token_accounts_by_delegate_mv"},
	}
}

// sortPrefixKeys is migration 24: the tables whose sort key starts with
// a FixedString(32) column of random bytes start it with KeyPrefix of
// that column instead, and gain a minmax index on the column. Their rows
// keep their order, and their merges their result.
//
// The engine sorts every inserted part by its key. Comparing 32-byte
// strings scattered over a column of millions of rows misses the cache at
// nearly every comparison; a UInt64 first column is radix sorted, and the
// strings are compared only within runs of an equal prefix (a whole mint
// for mint_holders). Inserting 2.5M rows shaped as each table (a
// throwaway test: max_threads = 1, merges stopped, 7 rounds, medians):
// token_owner_txs 829 against 457 ms, token_balances 1374 (984 at best)
// against 728, mint_holders 832 against 473, token_accounts 2523 against
// 1786; the minmax index takes about 20 ms of them. In the 20M-account
// bench each table takes 8 such parts, about 15 CPU-s in all of an ingest
// of about 135. A lookup by the column alone reads 1 of 306 granules
// through the minmax index (EXPLAIN indexes = 1), and a descending page
// of a mint's holders still reads in reverse key order.
//
// Interrupted anywhere, the statements apply again from the start, as
// migration 10's: the copy is dropped and redone from the table, which is
// always whole (the original, or already the rebuilt one), and the swap
// is one RENAME of both tables.
func sortPrefixKeys() []string {
	var out []string
	for _, t := range prefixKeyTables() {
		next, old := t.name+"_next", t.name+"_old"
		if t.view != "" {
			out = append(out, `DROP VIEW IF EXISTS `+t.viewName)
		}
		out = append(out,
			`DROP TABLE IF EXISTS `+next,
			// The same columns, codecs and indexes in the same order
			// (SELECT * below copies by position), a new engine clause.
			fmt.Sprintf(`CREATE TABLE %s AS %s ENGINE = %s ORDER BY (%s, %s, %s) %s`,
				next, t.name, t.engine, KeyPrefix(t.col), t.col, t.rest, t.settings),
			fmt.Sprintf(`ALTER TABLE %s ADD INDEX IF NOT EXISTS %s_mm %s TYPE minmax GRANULARITY 1`, next, t.col, t.col),
			`INSERT INTO `+next+` SELECT * FROM `+t.name,
			`DROP TABLE IF EXISTS `+old,
			`RENAME TABLE `+t.name+` TO `+old+`, `+next+` TO `+t.name,
			`DROP TABLE IF EXISTS `+old,
		)
		if t.view != "" {
			out = append(out, t.view)
		}
	}
	return out
}
