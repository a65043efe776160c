package compressed

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
)

// TestBalancePairsIndex runs steps with one StateStep, so they find old
// balances in the engine's index of stored balances: a pair changing in
// several steps adds rows the index keeps until, outnumbering its keys,
// they make the next step reload it; an index emptied behind the step's
// back (an engine restart) is noticed and reloaded, not read as "no
// balance". The balances end as the sum of the unspent accounts either way.
func TestBalancePairsIndex(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	step := NewStateStep()
	var loads int
	step.Observe(func(what string, _ time.Duration) {
		if what == "balance pairs load" {
			loads++
		}
	})
	acc := func(hash string, slot int, owner string, amount int) string {
		return fixtureAccount(hash, "ctoken", slot, true, owner, "", amount)
	}
	steps := []struct {
		sql       []string
		slot      uint64
		loadsWant int
	}{
		{[]string{acc("a1", 10, "alice", 100), acc("b1", 10, "bob", 50)}, 10, 1},
		{[]string{acc("a2", 20, "alice", 30), fixtureSpend("b1", 20)}, 20, 1},
		// Two keys, three rows added for them so far: the next step reloads.
		{[]string{acc("a3", 25, "alice", 1)}, 25, 1},
		{[]string{acc("a4", 30, "alice", 5)}, 30, 2},
		{[]string{`TRUNCATE TABLE compressed_step_balances`, acc("a5", 40, "alice", 7)}, 40, 3},
	}
	for _, st := range steps {
		execAll(t, s, st.sql...)
		if err := step.Apply(ctx, s, st.slot, st.slot); err != nil {
			t.Fatal(err)
		}
		if loads != st.loadsWant {
			t.Errorf("after slot %d: %d index loads, want %d", st.slot, loads, st.loadsWant)
		}
	}
	if got, want := rows(t, s, `SELECT `+fixtureName("owner")+`, balance FROM token_balances FINAL ORDER BY owner`),
		[]string{"alice 143", "bob 0"}; !slices.Equal(got, want) {
		t.Errorf("balances %q, want %q", got, want)
	}
	// The engine cannot list a Join table keyed by 16 bytes: look every
	// stored pair up in it instead.
	stored := `SELECT pair, argMax(balance, version) AS b FROM token_balances GROUP BY pair`
	if got := rows(t, s, `SELECT count(), countIf(joinGet('compressed_step_balances', 'had', pair)
		AND joinGet('compressed_step_balances', 'balance', pair) = b) FROM (`+stored+`)`); !slices.Equal(got, []string{"2 2"}) {
		t.Errorf("stored pairs, pairs the index holds with their balance: %q, want 2 2", got)
	}
}
