package schema

// readPathsNoSignature is migration 15: the read paths compressed_by_owner,
// token_accounts and token_accounts_by_delegate stop copying the creating
// transaction's signature.
//
// No reader takes it from them: the account methods answer without it,
// and the signature methods read compressed_accounts and the signature
// tables. It was the widest column of every row (64 random bytes that no
// codec shrinks): on a 4M-account bench store 254 of token_accounts'
// 700 compressed MB, written once by the view and again by every merge.
// compressed_accounts keeps it.
//
// A view that selects a column its target lacks fails every insert, so
// each view's query is changed first, in place (ALTER … MODIFY QUERY,
// which ClickHouse's documentation no longer puts behind a setting since
// January 2024; the embedded engine runs it, a server was not tried):
// unlike dropping and recreating the views (migrations 7 and 10), no
// insert into compressed_accounts runs without them, even on a server
// ingesting while it migrates. Every statement applies again unchanged,
// so an interrupted run is redone from the start.
func readPathsNoSignature() []string {
	views := []struct{ name, table, sql string }{
		{"compressed_by_owner_mv", TableCompressedByOwner, `SELECT ` + viewAccountColumns +
			`, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE NOT is_token`},
		{"token_accounts_mv", TableTokenAccounts, `SELECT ` + viewAccountColumns +
			`, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE is_token`},
		{"token_accounts_by_delegate_mv", TableTokenByDelegate, `SELECT ` + viewAccountColumns +
			`, assumeNotNull(delegate) AS delegate_key, false AS spent, toUInt64(0) AS spent_slot
			FROM compressed_accounts WHERE is_token AND delegate IS NOT NULL`},
	}
	var out []string
	for _, v := range views {
		out = append(out, `ALTER TABLE `+v.name+` MODIFY QUERY `+v.sql)
	}
	for _, v := range views {
		out = append(out, `ALTER TABLE `+v.table+` DROP COLUMN IF EXISTS signature`)
	}
	return out
}
