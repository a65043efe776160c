package compressedstate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
)

// TestStepWritesOnePart steps one slot of 1.2M token outputs, more than
// the engine's default squashing of an INSERT SELECT (1,048,449 rows a
// part): each stored table the step writes gains one part, so no merge
// has to rewrite a backfill step's rows, and the balances are right.
func TestStepWritesOnePart(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	tables := []string{schema.TableTokenLedgerApplied, schema.TableTokenBalances, schema.TableMintHolders}
	stopMerges(t, s, tables...)
	// 1.2M accounts, each its own owner's, amounts 1, 2, 3 over 2 mints.
	err := s.Exec(ctx, `INSERT INTO compressed_accounts (hash, owner, slot_created, is_token, mint, token_owner, amount)
		SELECT toFixedString(reinterpretAsString(sipHash128(number)), 32), toFixedString('cToken', 32), 7, true,
			toFixedString(toString(number % 2), 32),
			toFixedString(reinterpretAsString(sipHash128(number, 'owner')), 32), number % 3 + 1
		FROM numbers(1200000)`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := NewStateStep().Apply(ctx, s, 7, 7); err != nil {
		t.Fatal(err)
	}
	got := rows(t, s, `SELECT table, count() FROM system.parts
		WHERE database = currentDatabase() AND active AND table IN ('`+strings.Join(tables, "', '")+`')
		GROUP BY table ORDER BY table`)
	var want []string
	for _, table := range tables {
		want = append(want, table+" 1")
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("parts: %q, want %q", got, want)
	}
	sums := rows(t, s, `SELECT (SELECT count() FROM token_balances FINAL), (SELECT sum(balance) FROM token_balances FINAL),
		(SELECT count() FROM mint_holders FINAL), (SELECT sum(balance) FROM mint_holders FINAL),
		(SELECT count() FROM `+schema.TableTokenLedgerApplied+`)`)
	if want := []string{"1200000 2400000 1200000 2400000 1200000"}; !slices.Equal(sums, want) {
		t.Errorf("balances, holders (count, sum), markers: %q, want %q", sums, want)
	}
}
