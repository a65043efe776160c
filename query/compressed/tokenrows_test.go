package compressed

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
)

// TestTokenRowsChangedSkips checks that the sync read of the slots after
// the last ones seen skips the parts written before them through the
// sync_mm index (migration 11) instead of scanning token_accounts.
func TestTokenRowsChangedSkips(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	stop := `SYSTEM STOP MERGES token_accounts`
	if err := s.Exec(ctx, stop, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Exec(ctx, `SYSTEM START MERGES token_accounts`, nil); err != nil {
			t.Error(err)
		}
	})
	// Five inserts of 3,000 accounts, one slot range each: five parts of
	// three 1,024-row granules.
	for i := 0; i < 5; i++ {
		q := fmt.Sprintf(`INSERT INTO token_accounts (hash, token_owner, is_token, slot_created)
			SELECT reinterpretAsFixedString(sipHash128(%d, number)), reinterpretAsFixedString(sipHash128(number)), true, %d
			FROM numbers(3000)`, i, i*10+5)
		if err := s.Exec(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Query(ctx, `EXPLAIN indexes = 1 `+sqlTokenRowsChanged, map[string]string{"from": "41", "to": "50"})
	if err != nil {
		t.Fatal(err)
	}
	var plan string
	for _, r := range res.Rows {
		plan += fmt.Sprint(r[0]) + "\n"
	}
	m := regexp.MustCompile(`Name: sync_mm\n(?:.*\n){2}\s*Parts: (\d+)/(\d+)`).FindStringSubmatch(plan)
	if m == nil || m[1] != "1" || m[2] != "5" {
		t.Fatalf("sync_mm should leave 1 of 5 parts, plan:\n%s", plan)
	}
	rows, err := TokenRowsChanged(ctx, s, 41, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3000 {
		t.Fatalf("%d rows changed in 41..50, want 3000", len(rows))
	}
}
