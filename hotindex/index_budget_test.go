package hotindex_test

import (
	"context"
	"testing"

	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

const budgetOwners, budgetMints = 40, 4

// heldOwner tells whether the index should hold owner key k: its load
// chunk (the first byte, in 64 ranges) is below the chunks held.
func heldOwner(k compressed.Key, st hotindex.Stats) bool {
	return int(k[0])*st.Chunks/256 < st.HeldChunks
}

// checkHeld compares every owner's and mint's answer with the store: a
// held owner's pages equal the query layer's, any other owner and every
// mint (unless all chunks are held) answer "not held".
func checkHeld(t *testing.T, ctx context.Context, s arrowstore.Store, x *hotindex.Index, bal map[pair]uint64) {
	t.Helper()
	st := x.Stats()
	if st.Bytes > x.Budget() {
		t.Errorf("%d bytes past the budget of %d", st.Bytes, x.Budget())
	}
	entries := 0
	for p := range bal {
		if heldOwner(owner(p.owner), st) {
			entries++
		}
	}
	if st.Entries != entries {
		t.Errorf("entries %d, want %d held", st.Entries, entries)
	}
	for o := 0; o < budgetOwners+3; o++ {
		for _, p := range []compressed.BalancePage{
			{Limit: 1000}, {Limit: 1000, WithZero: true}, {Limit: 1}, {Limit: 1000, Mint: ptr(mint(1))},
		} {
			got, _, ok, err := x.Balances(owner(o), p)
			if err != nil {
				t.Fatal(err)
			}
			if !heldOwner(owner(o), st) {
				if ok {
					t.Errorf("owner %d (chunk past %d held): answered %v, want not held", o, st.HeldChunks, got)
				}
				continue
			}
			want, err := compressed.TokenBalancesByOwner(ctx, s, owner(o), p)
			if err != nil {
				t.Fatal(err)
			}
			if !ok || !samePage(got, want) {
				t.Errorf("owner %d, %+v: index %v (held %v), query layer %v", o, p, got, ok, want)
			}
		}
	}
	for m := 0; m < budgetMints+1; m++ {
		p := compressed.HolderPage{Limit: 1000, WithZero: true}
		got, _, ok, err := x.Holders(mint(m), p)
		if err != nil {
			t.Fatal(err)
		}
		if st.HeldChunks < st.Chunks {
			if ok {
				t.Errorf("mint %d with %d of %d chunks held: answered %v, want not held", m, st.HeldChunks, st.Chunks, got)
			}
			continue
		}
		want, err := compressed.MintHolders(ctx, s, mint(m), p)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || !samePage(got, want) {
			t.Errorf("mint %d: index %v (held %v), query layer %v", m, got, ok, want)
		}
	}
}

// TestBudget loads and syncs the index within budgets that fit all, some
// or none of the chunks, and checks every answer against the store.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	st := &state{t: t, s: s, bal: map[pair]uint64{}}
	initial := map[pair]uint64{}
	for o := 0; o < budgetOwners; o++ {
		for m := 0; m < budgetMints; m++ {
			if (o+m)%3 != 0 {
				initial[pair{o, m}] = uint64(o*10 + m)
			}
		}
	}
	st.set(ctx, initial, 10)
	full := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := full.Load(ctx); err != nil {
		t.Fatal(err)
	}
	fs := full.Stats()
	if fs.HeldChunks != fs.Chunks || fs.Chunks != 64 {
		t.Fatalf("default budget holds %d of %d chunks, want all of 64", fs.HeldChunks, fs.Chunks)
	}

	// Owner 40 is new, in the chunk of owner 0's key (0) plus 40*37
	// mod 256 = 200: past half; owner 41 (k[0] 237) too, owner 42 (k[0]
	// 18) in a low chunk.
	changes := []map[pair]uint64{
		{{0, 0}: 7, {1, 1}: 0, {5, 2}: 99, {30, 3}: 4, {40, 0}: 3, {42, 1}: 8, {41, 2}: 1},
		{{0, 0}: 9, {2, 1}: 55, {42, 3}: 2, {39, 0}: 0},
	}
	// The subtests write to one store in turn: each change is at a slot
	// past the last, or Sync would see no new slot.
	slot := uint64(10)
	for _, tc := range []struct {
		name   string
		budget int64
		// held: how many chunks the load should hold: all, some, none.
		held string
	}{
		{"everything fits", fs.Bytes, "all"},
		{"half", fs.Bytes / 2, "some"},
		{"a quarter", fs.Bytes / 4, "some"},
		{"one byte", 1, "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := hotindex.New(s, tc.budget)
			if err := x.Load(ctx); err != nil {
				t.Fatal(err)
			}
			ls := x.Stats()
			switch held := ls.HeldChunks; {
			case tc.held == "all" && held != ls.Chunks,
				tc.held == "some" && (held == 0 || held == ls.Chunks),
				tc.held == "none" && held != 0:
				t.Fatalf("budget %d of %d: %d of %d chunks held, want %s", tc.budget, fs.Bytes, held, ls.Chunks, tc.held)
			}
			checkHeld(t, ctx, s, x, st.bal)
			for _, c := range changes {
				slot++
				st.set(ctx, c, slot)
				if err := x.Sync(ctx); err != nil {
					t.Fatal(err)
				}
				checkHeld(t, ctx, s, x, st.bal)
			}
		})
	}
}

// TestBudgetSyncGrowth: balances synced past the budget make the index
// stop holding its highest chunks rather than grow; what it still holds
// stays exact.
func TestBudgetSyncGrowth(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	st := &state{t: t, s: s, bal: map[pair]uint64{}}
	initial := map[pair]uint64{}
	for o := 0; o < budgetOwners; o++ {
		initial[pair{o, 0}] = uint64(o + 1)
	}
	st.set(ctx, initial, 10)
	probe := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := probe.Load(ctx); err != nil {
		t.Fatal(err)
	}
	// Everything fits, with room for a few balances more.
	x := hotindex.New(s, probe.Stats().Bytes+200)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.HeldChunks != st.Chunks {
		t.Fatalf("%d of %d chunks held, want all", st.HeldChunks, st.Chunks)
	}
	checkHeld(t, ctx, s, x, st.bal)
	// Every owner gains three mints: far past the room left.
	grow := map[pair]uint64{}
	for o := 0; o < budgetOwners; o++ {
		for m := 1; m < budgetMints; m++ {
			grow[pair{o, m}] = uint64(m)
		}
	}
	st.set(ctx, grow, 11)
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	gs := x.Stats()
	if gs.HeldChunks == gs.Chunks || gs.HeldChunks == 0 {
		t.Errorf("after growth %d of %d chunks held, want some dropped and some kept", gs.HeldChunks, gs.Chunks)
	}
	checkHeld(t, ctx, s, x, st.bal)
	st.set(ctx, map[pair]uint64{{0, 0}: 1000, {3, 2}: 0, {39, 1}: 5}, 12)
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	checkHeld(t, ctx, s, x, st.bal)
}
