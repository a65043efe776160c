package compressedstate

import (
	"context"
	"slices"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// TestZeroBalanceStaysListed spends Bob's only account (the minted 1000)
// and applies the step to the spend's slot: his balance row drops to 0 and
// stays, as Photon keeps it, and the old holder key is tombstoned.
func TestZeroBalanceStaysListed(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	index(t, s, paths(sigMint), ingest.Config{})
	err := s.Exec(ctx, `INSERT INTO compressed_spent (hash, slot, signature, block_time)
		VALUES ({h:FixedString(32)}, 50, {sig:FixedString(64)}, 7)`,
		store.Params{"h": rawSig("38eTBdRT4kdFELvNfbJbFZNvGWUvXbn3DdJn3PzMtsqJ"), "sig": rawSig(sigT1)})
	if err != nil {
		t.Fatal(err)
	}
	step := NewStateStep()
	for range 2 {
		if err := step.Apply(ctx, s, 50, 50); err != nil {
			t.Fatal(err)
		}
	}
	checks := []struct{ name, sql string }{
		{"balance", `SELECT base58Encode(owner), balance FROM token_balances FINAL`},
		{"holders", `SELECT balance, base58Encode(owner) FROM mint_holders FINAL`},
		{"holder rows", `SELECT balance, is_deleted FROM mint_holders ORDER BY version, is_deleted DESC`},
		{"spent", `SELECT spent, spent_slot FROM token_accounts FINAL`},
		{"spend signature", `SELECT base58Encode(owner), slot FROM token_owner_txs FINAL WHERE slot = 50`},
	}
	want := map[string][]string{
		"balance":         {bob + " 0"},
		"holders":         {"0 " + bob},
		"holder rows":     {"1000 0", "1000 1", "0 0"},
		"spent":           {"true 50"},
		"spend signature": {bob + " 50"},
	}
	for _, c := range checks {
		if got := rows(t, s, c.sql); !slices.Equal(got, want[c.name]) {
			t.Errorf("%s: %q, want %q", c.name, got, want[c.name])
		}
	}
}
