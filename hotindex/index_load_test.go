package hotindex

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/query/compressed"
)

// TestBulkMatchesApply checks that the load's bulk build leaves the lists
// that applying the same balances leaves (Sync's path), whether the
// chunks come in key order (holders sorted by owner id) or not (by key),
// with ties on balance across owners.
func TestBulkMatchesApply(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var rows []row
	for o := 0; o < 300; o++ {
		var k compressed.Key
		k[0], k[1], k[31] = byte(rnd.IntN(256)), byte(o), byte(o>>8)
		for m := 0; m < 5; m++ {
			if rnd.IntN(3) == 0 {
				continue
			}
			var mk compressed.Key
			mk[0] = byte(250 - 40*m)
			rows = append(rows, row{owner: k, mint: mk, bal: uint64(rnd.IntN(4) * 10)})
		}
	}
	// Key order, as the load reads them, in chunks of the key space.
	slices.SortFunc(rows, func(a, b row) int {
		if c := strings.Compare(string(a.owner[:]), string(b.owner[:])); c != 0 {
			return c
		}
		return strings.Compare(string(a.mint[:]), string(b.mint[:]))
	})
	chunks := func(rows []row) [][]row {
		var out [][]row
		for len(rows) > 0 {
			n := 1
			for n < len(rows) && (n < 40 || rows[n].owner == rows[n-1].owner) {
				n++
			}
			out, rows = append(out, rows[:n]), rows[n:]
		}
		return out
	}
	want := New(nil, DefaultBalanceBudget)
	want.held = loadChunks // as after a load: apply keeps holder lists
	want.apply(rows)
	inOrder := chunks(rows)
	reversed := slices.Clone(inOrder)
	slices.Reverse(reversed)
	for _, tc := range []struct {
		name    string
		chunks  [][]row
		ordered bool
	}{
		{"key order", inOrder, true},
		{"chunks reversed", reversed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := New(nil, DefaultBalanceBudget)
			b := newBulk(got, len(rows))
			for _, c := range tc.chunks {
				if err := b.add(c); err != nil {
					t.Fatal(err)
				}
			}
			b.finish(true)
			if b.ordered != tc.ordered {
				t.Errorf("ordered %v, want %v", b.ordered, tc.ordered)
			}
			if got.entries != want.entries || got.entries != len(rows) {
				t.Errorf("entries %d, apply %d, rows %d", got.entries, want.entries, len(rows))
			}
			for m, mk := range want.mintKeys {
				w, g := holderKeys(want, want.byMint[m]), holderKeys(got, got.byMint[got.mintIDs[mk]])
				if !slices.Equal(w, g) {
					t.Errorf("mint %x: holders %v, apply %v", mk[0], g, w)
				}
			}
			for o, ok := range want.ownerKeys {
				w, g := ownerKeys(want, want.byOwner[o]), ownerKeys(got, got.byOwner[got.ownerIDs[ok]])
				if !slices.Equal(w, g) {
					t.Errorf("owner %x: balances %v, apply %v", ok[:2], g, w)
				}
			}
		})
	}
}

// TestBulkRefusesOwnerTwice: rows of one owner split over two chunks
// would leave it two lists.
func TestBulkRefusesOwnerTwice(t *testing.T) {
	var o, m1, m2 compressed.Key
	o[0], m1[0], m2[0] = 1, 2, 3
	b := newBulk(New(nil, DefaultBalanceBudget), 2)
	if err := b.add([]row{{owner: o, mint: m1, bal: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := b.add([]row{{owner: o, mint: m2, bal: 1}}); err == nil {
		t.Error("an owner read in two chunks was taken")
	}
	if err := newBulk(New(nil, DefaultBalanceBudget), 2).add([]row{{owner: o, mint: m2}, {owner: o, mint: m1}}); err == nil {
		t.Error("an owner's balances out of mint order were taken")
	}
}

type keyBal struct {
	key compressed.Key
	bal uint64
}

func holderKeys(x *Index, h *holders) []keyBal {
	out := make([]keyBal, len(h.bal))
	for i := range h.bal {
		out[i] = keyBal{x.ownerKeys[h.owner[i]], h.bal[i]}
	}
	return out
}

func ownerKeys(x *Index, l []ownerBal) []keyBal {
	out := make([]keyBal, len(l))
	for i, e := range l {
		out[i] = keyBal{x.mintKeys[e.mint], e.bal}
	}
	return out
}

// TestBytesFollowApply checks that the estimate apply keeps by deltas
// stays what walking every list gives (measure), with holder lists kept
// (every chunk held) or not.
func TestBytesFollowApply(t *testing.T) {
	for _, held := range []int{loadChunks, loadChunks / 2} {
		rnd := rand.New(rand.NewPCG(3, 4))
		x := New(nil, DefaultBalanceBudget)
		x.held = held
		for batch := 0; batch < 5; batch++ {
			var rows []row
			for i := 0; i < 50; i++ {
				var o, m compressed.Key
				o[0], o[1] = byte(rnd.IntN(256)), byte(rnd.IntN(8))
				m[0] = byte(rnd.IntN(6))
				rows = append(rows, row{owner: o, mint: m, bal: uint64(rnd.IntN(3))})
			}
			// One balance per (owner, mint) in a batch, as Sync reads them.
			slices.SortFunc(rows, func(a, b row) int {
				return strings.Compare(string(a.owner[:])+string(a.mint[:]), string(b.owner[:])+string(b.mint[:]))
			})
			rows = slices.CompactFunc(rows, func(a, b row) bool { return a.owner == b.owner && a.mint == b.mint })
			x.apply(rows)
			if got, want := x.bytes, x.measure(); got != want {
				t.Fatalf("held %d, batch %d: bytes %d, measured %d", held, batch, got, want)
			}
		}
	}
}

// TestFitDropsToNothing: past a budget that no chunk fits, fit lets go of
// every owner and then every mint, down to an empty index.
func TestFitDropsToNothing(t *testing.T) {
	x := New(nil, 1)
	x.held = loadChunks
	var o1, o2, m compressed.Key
	o1[0], o2[0], m[0] = 3, 250, 9
	x.apply([]row{{owner: o1, mint: m, bal: 1}, {owner: o2, mint: m, bal: 2}})
	x.fit()
	if x.held != 0 || x.bytes != 0 || x.measure() != 0 || x.entries != 0 || len(x.mintKeys) != 0 || len(x.ownerIDs) != 0 {
		t.Errorf("held %d, bytes %d (measured %d), entries %d, mints %d, owners %d; want all 0",
			x.held, x.bytes, x.measure(), x.entries, len(x.mintKeys), len(x.ownerIDs))
	}
}
