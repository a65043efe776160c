package hotindex_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// owner keys spread over the first byte (so every load chunk is used) and
// differ in the last byte too, so ties on balance compare whole keys.
func owner(i int) compressed.Key {
	var k compressed.Key
	k[0] = byte(i * 37)
	k[31] = byte(i)
	return k
}

func mint(i int) compressed.Key {
	var k compressed.Key
	k[0] = byte(200 - i*50)
	k[1] = 7
	return k
}

type pair struct{ owner, mint int }

// state writes balances the way the ingest state step does: token_balances
// at a new version, and in mint_holders a tombstone for the old balance
// and a live row for the new one.
type state struct {
	t       *testing.T
	s       arrowstore.Store
	bal     map[pair]uint64
	version uint64
}

func (st *state) set(ctx context.Context, changes map[pair]uint64, slot uint64) {
	st.t.Helper()
	st.version++
	var bal, hold []string
	v := strconv.FormatUint(st.version, 10)
	hex := func(k compressed.Key) string { return fmt.Sprintf("unhex('%x')", k[:]) }
	for p, b := range changes {
		o, m := owner(p.owner), mint(p.mint)
		bal = append(bal, fmt.Sprintf("(%s, %s, %d, %s)", hex(o), hex(m), b, v))
		if old, ok := st.bal[p]; ok {
			hold = append(hold, fmt.Sprintf("(%s, %d, %s, %s, 1)", hex(m), old, hex(o), v))
		}
		hold = append(hold, fmt.Sprintf("(%s, %d, %s, %s, 0)", hex(m), b, hex(o), v))
		st.bal[p] = b
	}
	for _, q := range []string{
		`INSERT INTO token_balances (owner, mint, balance, version) VALUES ` + strings.Join(bal, ","),
		`INSERT INTO mint_holders (mint, balance, owner, version, is_deleted) VALUES ` + strings.Join(hold, ","),
		`INSERT INTO ` + schema.TableCheckpoints + ` (name, slot) VALUES ('` + schema.CheckpointMain + `', ` + strconv.FormatUint(slot, 10) + `)`,
	} {
		if err := st.s.Exec(ctx, q, nil); err != nil {
			st.t.Fatal(err)
		}
	}
}

// TestMatchesQueryLayer checks that the index returns the same pages as
// the query layer it replaces for every cursor position, limit and zero
// setting, after a load and after incremental syncs.
func TestMatchesQueryLayer(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	st := &state{t: t, s: s, bal: map[pair]uint64{}}
	x := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := x.Holders(mint(0), compressed.HolderPage{Limit: 1}); !errors.Is(err, checkpoint.ErrNotIndexed) {
		t.Fatalf("before any checkpoint: %v, want ErrNotIndexed", err)
	}

	initial := map[pair]uint64{}
	for o := 0; o < 12; o++ {
		initial[pair{o, 0}] = uint64(o % 3 * 10) // ties, and zeros
		if o%2 == 0 {
			initial[pair{o, 1}] = uint64(100 + o)
		}
		if o%4 == 0 {
			initial[pair{o, 2}] = 5
		}
	}
	st.set(ctx, initial, 10)

	x = hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		changes map[pair]uint64
		slot    uint64
	}{
		{"loaded", nil, 10},
		{"changes", map[pair]uint64{
			{0, 0}: 10, {1, 0}: 0, {2, 0}: 20, // moves, including to and from zero
			{12, 0}: 10, {13, 1}: 0, {13, 3}: 1, // new owners and a new mint
			{4, 1}: 104, // unchanged balance written again
		}, 11},
		{"more changes", map[pair]uint64{{5, 0}: 0, {6, 0}: 0, {12, 0}: 999, {0, 2}: 6}, 12},
	}
	for _, step := range steps {
		if step.changes != nil {
			st.set(ctx, step.changes, step.slot)
			if err := x.Sync(ctx); err != nil {
				t.Fatal(err)
			}
		}
		t.Run(step.name, func(t *testing.T) {
			if got := x.Stats().Slot; got != step.slot {
				t.Errorf("slot %d, want %d", got, step.slot)
			}
			compare(t, ctx, s, x, st.bal, step.slot)
		})
	}
	// A fresh load reads the newest of the versions written.
	t.Run("reloaded", func(t *testing.T) {
		y := hotindex.New(s, hotindex.DefaultBalanceBudget)
		if err := y.Load(ctx); err != nil {
			t.Fatal(err)
		}
		compare(t, ctx, s, y, st.bal, steps[len(steps)-1].slot)
	})
}

func compare(t *testing.T, ctx context.Context, s arrowstore.Store, x *hotindex.Index, bal map[pair]uint64, slot uint64) {
	t.Helper()
	for m := 0; m < 5; m++ {
		all, err := compressed.MintHolders(ctx, s, mint(m), compressed.HolderPage{Limit: 1000, WithZero: true})
		if err != nil {
			t.Fatal(err)
		}
		// Every holder as a cursor, plus cursors between and beyond them.
		cursors := []*compressed.HolderCursor{nil, {Balance: 1 << 63, Owner: owner(0)}, {Balance: 10, Owner: compressed.Key{}}, {Balance: 0, Owner: compressed.Key{}}}
		for _, h := range all {
			cursors = append(cursors, &compressed.HolderCursor{Balance: h.Balance, Owner: h.Owner})
		}
		for _, c := range cursors {
			for _, limit := range []uint64{0, 1, 2, 3, 1000} {
				for _, zero := range []bool{false, true} {
					p := compressed.HolderPage{After: c, Limit: limit, WithZero: zero}
					want, err := compressed.MintHolders(ctx, s, mint(m), p)
					if err != nil {
						t.Fatal(err)
					}
					got, gotSlot, ok, err := x.Holders(mint(m), p)
					if err != nil || !ok || gotSlot != slot || !samePage(got, want) {
						t.Errorf("mint %d, %+v: index %v (slot %d, %v), query layer %v", m, p, got, gotSlot, err, want)
					}
				}
			}
		}
	}
	for o := 0; o < 15; o++ {
		var mints []*compressed.Key
		for m := 0; m < 5; m++ {
			mints = append(mints, ptr(mint(m)))
		}
		for _, after := range append([]*compressed.Key{nil}, mints...) {
			for _, only := range append([]*compressed.Key{nil}, mints...) {
				for _, limit := range []uint64{0, 1, 2, 1000} {
					for _, zero := range []bool{false, true} {
						p := compressed.BalancePage{Mint: only, AfterMint: after, Limit: limit, WithZero: zero}
						want, err := compressed.TokenBalancesByOwner(ctx, s, owner(o), p)
						if err != nil {
							t.Fatal(err)
						}
						got, _, ok, err := x.Balances(owner(o), p)
						if err != nil || !ok || !samePage(got, want) {
							t.Errorf("owner %d, %+v: index %v (%v), query layer %v", o, p, got, err, want)
						}
					}
				}
			}
		}
	}
	if st := x.Stats(); st.Entries != len(bal) {
		t.Errorf("entries %d, want %d", st.Entries, len(bal))
	}
}

func ptr[T any](v T) *T { return &v }

// samePage compares pages treating nil and empty alike.
func samePage[T any](a, b []T) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// TestSyncWithoutNewSlot checks that a sync reads no balances until the
// checkpoint moves: the ingest writes balances before the checkpoint.
func TestSyncWithoutNewSlot(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	st := &state{t: t, s: s, bal: map[pair]uint64{}}
	st.set(ctx, map[pair]uint64{{1, 0}: 5}, 3)
	x := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    string
		want uint64
	}{
		{"balance without checkpoint", `INSERT INTO token_balances VALUES (unhex('` + fmt.Sprintf("%x", owner(1)) + `'), unhex('` + fmt.Sprintf("%x", mint(0)) + `'), 9, 99)`, 5},
		{"checkpoint", `INSERT INTO indexer_checkpoints (name, slot) VALUES ('` + schema.CheckpointMain + `', 4)`, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Exec(ctx, tc.q, nil); err != nil {
				t.Fatal(err)
			}
			if err := x.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			got, _, _, err := x.Holders(mint(0), compressed.HolderPage{Limit: 10})
			if err != nil || len(got) != 1 || got[0].Balance != tc.want {
				t.Errorf("holders %v (%v), want balance %d", got, err, tc.want)
			}
		})
	}
}

// TestReadsDuringSync pages concurrently with syncs (run with -race): a
// page is always one consistent order, never a half-applied change.
func TestReadsDuringSync(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	st := &state{t: t, s: s, bal: map[pair]uint64{}}
	st.set(ctx, map[pair]uint64{{0, 0}: 1, {1, 0}: 2}, 1)
	x := hotindex.New(s, hotindex.DefaultBalanceBudget)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			got, _, _, err := x.Holders(mint(0), compressed.HolderPage{Limit: 100, WithZero: true})
			if err == nil && len(got) != 2 {
				err = fmt.Errorf("page of %d holders, want 2", len(got))
			}
			for i := 1; err == nil && i < len(got); i++ {
				if got[i].Balance > got[i-1].Balance {
					err = fmt.Errorf("page out of order: %v", got)
				}
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	for v := uint64(2); v < 8; v++ {
		st.set(ctx, map[pair]uint64{{0, 0}: v * 3, {1, 0}: v}, v)
		if err := x.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
