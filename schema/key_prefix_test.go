package schema_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// prefixKeyed are the tables migration 24 leads with a key prefix, and
// the column each is prefixed by.
var prefixKeyed = []struct{ table, col, insert string }{
	{schema.TableOwnerTxs, "owner", `INSERT INTO owner_txs (owner, slot, sig_prefix)
		SELECT randomFixedString(32), number, randomFixedString(8) FROM numbers(1000)`},
	// Enough rows for several granules: the lookups below must narrow.
	{schema.TableTokenOwnerTxs, "owner", `INSERT INTO token_owner_txs (owner, slot, sig_prefix)
		SELECT toFixedString(unhex(hex(sipHash128(number % 9000))) || unhex(hex(sipHash128(number % 9000 + 1))), 32), number, randomFixedString(8) FROM numbers(50000)`},
	{schema.TableTokenBalances, "owner", `INSERT INTO token_balances (owner, mint, balance, version)
		SELECT randomFixedString(32), randomFixedString(32), number, 1 FROM numbers(1000)`},
	{schema.TableMintHolders, "mint", `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
		SELECT toFixedString(unhex(hex(sipHash128(number % 7))) || unhex(hex(sipHash128(number % 7))), 32), number, randomFixedString(32), 1, 0 FROM numbers(1000)`},
	{schema.TableTokenAccounts, "token_owner", `INSERT INTO token_accounts (hash, token_owner, mint, amount, is_token)
		SELECT randomFixedString(32), randomFixedString(32), randomFixedString(32), number, true FROM numbers(1000)`},
	{schema.TableTokenByDelegate, "delegate_key", `INSERT INTO token_accounts_by_delegate (hash, token_owner, mint, amount, is_token, delegate, delegate_key)
		SELECT randomFixedString(32) AS h, randomFixedString(32), randomFixedString(32), number, true, h, h FROM numbers(1000)`},
}

// TestSortPrefixKeys applies migration 24 again over stored rows: every
// row stays, each table's key leads with the prefix of its column, has
// a minmax index on it and keeps its order, the views write the rebuilt
// tables, and a lookup by the column narrows the read by either index.
func TestSortPrefixKeys(t *testing.T) {
	s := storetest.Open(t)
	fingerprint := func(table string) string {
		return strings.Join(rows(t, s, `SELECT count(), sum(cityHash64(*)) FROM `+table), " ")
	}
	before := map[string]string{}
	for _, p := range prefixKeyed {
		exec(t, s, p.insert)
		before[p.table] = fingerprint(p.table)
	}
	var stmts []string
	for _, m := range schema.Migrations() {
		if m.Version == 24 {
			stmts = m.Statements
		}
	}
	if len(stmts) == 0 {
		t.Fatal("no migration 24")
	}
	for _, q := range stmts {
		exec(t, s, q)
	}
	for _, p := range prefixKeyed {
		if got := fingerprint(p.table); got != before[p.table] {
			t.Errorf("%s: rows %s after the rebuild, %s before", p.table, got, before[p.table])
		}
		key := rows(t, s, `SELECT sorting_key FROM system.tables WHERE database = currentDatabase() AND name = '`+p.table+`'`)
		if want := schema.KeyPrefix(p.col) + ", " + p.col + ", "; len(key) != 1 || !strings.HasPrefix(key[0], want) {
			t.Errorf("%s: sorting key %q, want it to start with %q", p.table, key, want)
		}
		idx := rows(t, s, `SELECT type, expr FROM system.data_skipping_indices
			WHERE database = currentDatabase() AND table = '`+p.table+`' AND name = '`+p.col+`_mm'`)
		if want := "minmax " + p.col; len(idx) != 1 || idx[0] != want {
			t.Errorf("%s: index %s_mm %q, want %q", p.table, p.col, idx, want)
		}
		// The prefix orders as the column's bytes do.
		sorted := rows(t, s, fmt.Sprintf(`SELECT (SELECT groupArray(%[1]s) FROM (SELECT %[1]s FROM %[2]s ORDER BY %[3]s, %[1]s))
			= (SELECT groupArray(%[1]s) FROM (SELECT %[1]s FROM %[2]s ORDER BY %[1]s))`, p.col, p.table, schema.KeyPrefix(p.col)))
		if len(sorted) != 1 || sorted[0] != "1" {
			t.Errorf("%s: ordered by the prefix, %s is not in its own order", p.table, p.col)
		}
	}
	// The views were made again over the rebuilt tables.
	exec(t, s, `INSERT INTO compressed_accounts (hash, is_token, token_owner, mint, amount, delegate)
		VALUES (unhex(repeat('ab', 32)), true, unhex(repeat('cd', 32)), unhex(repeat('ef', 32)), 5, unhex(repeat('12', 32)))`)
	for _, table := range []string{schema.TableTokenAccounts, schema.TableTokenByDelegate} {
		if got := rows(t, s, `SELECT count() FROM `+table+` WHERE hash = unhex(repeat('ab', 32))`); len(got) != 1 || got[0] != "1" {
			t.Errorf("%s: the new output's rows %v, want 1", table, got)
		}
	}
	// A lookup by owner reads one granule of the table's several: by the
	// primary key when the prefix is named (as the API does), by the
	// minmax index when it is not (as plain SQL does).
	owner := "toFixedString(unhex(hex(sipHash128(77))) || unhex(hex(sipHash128(78))), 32)"
	granules := regexp.MustCompile(`Granules: (\d+)/(\d+)`)
	for _, c := range []struct{ where, index string }{
		{schema.KeyPrefixEquals("owner", owner), "PrimaryKey"},
		{"owner = " + owner, "Skip"},
	} {
		plan := rows(t, s, `EXPLAIN indexes = 1 SELECT slot FROM token_owner_txs WHERE `+c.where)
		in := false
		found := ""
		for _, l := range plan {
			if strings.Contains(l, c.index) {
				in = true
			}
			if m := granules.FindStringSubmatch(l); in && m != nil {
				found = m[0]
				if m[1] != "1" || m[2] == "1" {
					t.Errorf("WHERE %s: %s %s, want 1 of several", c.where, c.index, m[0])
				}
				break
			}
		}
		if found == "" {
			t.Errorf("WHERE %s: no %s granules in the plan:\n%s", c.where, c.index, strings.Join(plan, "\n"))
		}
	}
}

func exec(t *testing.T, s store.Store, q string) {
	t.Helper()
	if err := s.Exec(context.Background(), q, nil); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func rows(t *testing.T, s store.Store, q string) []string {
	t.Helper()
	res, err := s.Query(context.Background(), q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := make([]string, len(res.Rows))
	for i, r := range res.Rows {
		parts := make([]string, len(r))
		for j, v := range r {
			parts[j] = fmt.Sprint(v)
		}
		out[i] = strings.Join(parts, " ")
	}
	return out
}
