package hotindex_test

import (
	"context"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
)

// TestStartedLater checks what lets `dasch serve` hand the indexes to its
// handlers before loading them: until Start's load has finished, each
// index declines every request (the store answers), and afterwards
// serves it.
func TestStartedLater(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := storetest.Open(t)
	if err := s.Exec(ctx, "INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 9)", nil); err != nil {
		t.Fatal(err)
	}
	bal := hotindex.New(s, hotindex.DefaultBalanceBudget)
	tok := hotindex.NewTokens(s, hotindex.DefaultTokenBudget)
	ast := hotindex.NewAssets(s, hotindex.DefaultAssetBudget)
	var owner compressed.Key
	id := solana.Pubkey{7}
	tests := []struct {
		name  string
		serve func() (serving bool, slot uint64)
	}{
		{"balances", func() (bool, uint64) {
			if !bal.Ready() {
				return false, 0
			}
			_, slot, ok, err := bal.Balances(owner, compressed.BalancePage{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return ok, slot
		}},
		{"token accounts", func() (bool, uint64) {
			_, slot, ok, err := tok.ByOwner(owner, compressed.TokenPage{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return ok, slot
		}},
		{"assets", func() (bool, uint64) {
			slot, ok := ast.Slot()
			unknown := ast.Lookup([]solana.Pubkey{id}, map[solana.Pubkey]*asset.State{})
			if ok == (len(unknown) == 1) {
				t.Fatalf("assets: slot ok %v but %d of 1 keys unknown", ok, len(unknown))
			}
			return ok, slot
		}},
	}
	for _, tc := range tests {
		if ok, _ := tc.serve(); ok {
			t.Errorf("%s: served before it was started", tc.name)
		}
	}
	for _, start := range []func(context.Context, time.Duration, func(error)) (time.Duration, error){bal.Start, tok.Start, ast.Start} {
		if _, err := start(ctx, hotindex.DefaultSyncInterval, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range tests {
		if ok, slot := tc.serve(); !ok || slot != 9 {
			t.Errorf("%s: after Start served %v at slot %d, want at 9", tc.name, ok, slot)
		}
	}
}
