package compressedstate

import (
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
)

// TestTokenGranules applies migration 10 (token_granules) to a store
// holding token accounts, after an interrupted run of it and then twice
// more: token_accounts keeps every row, gets 1,024-row granules, and its
// view goes on filling it.
func TestTokenGranules(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	const list = `SELECT hex(hash), spent, amount FROM token_accounts ORDER BY hash, spent`
	want := rows(t, s, list)
	if len(want) == 0 {
		t.Fatal("no token accounts indexed: the test checks nothing")
	}
	var stmts []string
	for _, m := range schema.Migrations() {
		if m.Name == "token_granules" {
			stmts = m.Statements
		}
	}
	if len(stmts) < 4 {
		t.Fatalf("migration token_granules: %d statements", len(stmts))
	}
	// Stopped after the copy, before the swap.
	execAll(t, s, stmts[:4]...)
	reapply(t, s, "token_granules")
	if got := rows(t, s, list); !slices.Equal(got, want) {
		t.Errorf("rows after the migration:\n%q\nwant\n%q", got, want)
	}
	engine := rows(t, s, `SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'token_accounts'`)
	if len(engine) != 1 || !strings.Contains(engine[0], "index_granularity = 1024") {
		t.Errorf("token_accounts engine %q", engine)
	}
	if left := rows(t, s, `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'token_accounts\_%'`); !slices.Equal(left, []string{"token_accounts_by_delegate", "token_accounts_by_delegate_mv", "token_accounts_mv"}) {
		t.Errorf("tables left beside token_accounts: %q", left)
	}
	execAll(t, s, fixtureAccount("new", "ctoken", 90, true, "carol", "", 4))
	if got := rows(t, s, `SELECT count() FROM token_accounts WHERE token_owner = `+fixtureKey("carol")); !slices.Equal(got, []string{"1"}) {
		t.Errorf("the view wrote %v rows of a new token account, want 1", got)
	}
}
