package compressedstate

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestPairTable runs random puts and gets against a Go map: keys that
// share their first bits (one home slot, long probe runs), the all-zero
// key (held from the start), overwrites, and growth from the smallest
// size.
func TestPairTable(t *testing.T) {
	cases := []struct {
		name string
		key  func(r *rand.Rand) pairKey
		ops  int
	}{
		{"uniform", func(r *rand.Rand) pairKey {
			var k pairKey
			binary.LittleEndian.PutUint64(k[:8], r.Uint64())
			binary.LittleEndian.PutUint64(k[8:], r.Uint64())
			return k
		}, 200_000},
		{"first half zero", func(r *rand.Rand) pairKey {
			var k pairKey
			binary.LittleEndian.PutUint64(k[8:], r.Uint64N(3000))
			return k
		}, 20_000},
		{"few keys, zero among them", func(r *rand.Rand) pairKey {
			var k pairKey
			k[0], k[15] = byte(r.IntN(4)), byte(r.IntN(4))
			return k
		}, 1_000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 5))
			tab, ref := newPairTable(0), map[pairKey]uint64{}
			// The zero key first: every growth must carry it.
			tab.Put(&pairKey{}, 7)
			ref[pairKey{}] = 7
			for i := range c.ops {
				k := c.key(r)
				if r.IntN(3) == 0 {
					v, ok := tab.Get(&k)
					if w, wok := ref[k]; v != w || ok != wok {
						t.Fatalf("op %d: Get %x = %d %v, want %d %v", i, k, v, ok, w, wok)
					}
					continue
				}
				v := r.Uint64()
				tab.Put(&k, v)
				ref[k] = v
			}
			if tab.Len() != len(ref) {
				t.Fatalf("Len %d, want %d", tab.Len(), len(ref))
			}
			for k, w := range ref {
				if v, ok := tab.Get(&k); !ok || v != w {
					t.Fatalf("Get %x = %d %v, want %d", k, v, ok, w)
				}
			}
			if len(tab.slots) < minPairSlots || tab.Len()*4 > len(tab.slots)*3 {
				t.Errorf("%d pairs in %d slots", tab.Len(), len(tab.slots))
			}
		})
	}
}

// TestPairTableSpreadsChosenDigests: digests that share their first 8
// bytes, or their last 8 (as owners chosen for it can make them), still
// get homes all over the array.
func TestPairTableSpreadsChosenDigests(t *testing.T) {
	for _, half := range []int{0, 8} {
		tab := newPairTableSlots(4096)
		homes := map[uint64]bool{}
		for i := range 1000 {
			var k pairKey
			for b := range k {
				k[b] = 0xab
			}
			binary.LittleEndian.PutUint64(k[8-half:16-half], uint64(i))
			homes[tab.home(&k)] = true
		}
		// 1000 keys over 4096 slots: about 886 distinct when uniform.
		if len(homes) < 800 {
			t.Errorf("keys varying in bytes %d..%d: 1000 keys on %d homes of 4096", 8-half, 15-half, len(homes))
		}
	}
}

// BenchmarkPairTable looks up and updates 500k random pairs in a table of
// 18M (the 20M-account bench's copy), per pair.
func BenchmarkPairTable(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	key := func() pairKey {
		var k pairKey
		binary.LittleEndian.PutUint64(k[:8], r.Uint64())
		binary.LittleEndian.PutUint64(k[8:], r.Uint64())
		return k
	}
	tab := newPairTable(18_000_000)
	held := make([]pairKey, 18_000_000)
	for i := range held {
		held[i] = key()
		tab.Put(&held[i], uint64(i))
	}
	probe := make([]pairKey, 500_000)
	for i := range probe {
		probe[i] = held[r.IntN(len(held))]
	}
	b.Run("get", func(b *testing.B) {
		for range b.N {
			for i := range probe {
				if _, ok := tab.Get(&probe[i]); !ok {
					b.Fatal("missing")
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/pair")
	})
	b.Run("put", func(b *testing.B) {
		for range b.N {
			for i := range probe {
				tab.Put(&probe[i], 1)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/pair")
	})
	// A step's pair was a get and a put; it is one add (balanceCache.apply).
	b.Run("add", func(b *testing.B) {
		for range b.N {
			for i := range probe {
				tab.Add(&probe[i], 1)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/pair")
	})
}

// TestGrowKeepsWrappedRuns fills a table with keys homed in its last
// slots, whose runs wrap around to its first, and grows it twice: grow
// reads the array in order and keeps the seed, so the wrapped pairs are
// rehashed first; every pair must still be found.
func TestGrowKeepsWrappedRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	tab := newPairTableSlots(minPairSlots)
	// The inverse of homeFactor mod 2^64 (Newton's iteration) makes keys
	// of chosen homes.
	inv := uint64(homeFactor)
	for range 5 {
		inv *= 2 - homeFactor*inv
	}
	keyAt := func(product uint64) pairKey {
		var k pairKey
		hi := r.Uint64()
		binary.LittleEndian.PutUint64(k[:8], product*inv^hi^tab.seed)
		binary.LittleEndian.PutUint64(k[8:], hi)
		return k
	}
	ref := map[pairKey]uint64{}
	put := func(k pairKey) {
		v := r.Uint64()
		tab.Put(&k, v)
		ref[k] = v
	}
	// 300 keys homed in the last 8 slots of 1024: runs to slot ~290.
	for range 300 {
		put(keyAt(^uint64(0) - r.Uint64N(1<<(64-7))))
	}
	for k := range ref {
		if h := tab.home(&k); h < minPairSlots-8 {
			t.Fatalf("setup: key homed at %d", h)
		}
	}
	if first := tab.slots[0].key; first == (pairKey{}) || tab.home(&first) < minPairSlots-8 {
		t.Fatal("setup: no run wraps around to slot 0")
	}
	for len(ref) < 3000 {
		var k pairKey
		binary.LittleEndian.PutUint64(k[:8], r.Uint64())
		put(k)
	}
	if len(tab.slots) != 4*minPairSlots {
		t.Fatalf("%d slots, want two grows to %d", len(tab.slots), 4*minPairSlots)
	}
	for k, w := range ref {
		if v, ok := tab.Get(&k); !ok || v != w {
			t.Fatalf("Get %x = %d %v, want %d", k, v, ok, w)
		}
	}
}

// BenchmarkPairTableGrow doubles a table of 12.6M pairs (just under the
// load that grows 2^24 slots): grow, which keeps the seed, against the
// same rehash under a new seed (as grow did before).
func BenchmarkPairTableGrow(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	full := newPairTableSlots(1 << 24)
	for full.Len() < 12_500_000 {
		var k pairKey
		binary.LittleEndian.PutUint64(k[:8], r.Uint64())
		binary.LittleEndian.PutUint64(k[8:], r.Uint64())
		full.Put(&k, 1)
	}
	for _, reseed := range []bool{false, true} {
		name := "same seed"
		if reseed {
			name = "new seed"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				if reseed {
					next := newPairTableSlots(2 * len(full.slots))
					for i := range full.slots {
						if full.slots[i].key != (pairKey{}) {
							b, _ := next.find(&full.slots[i].key)
							*b = full.slots[i].bal
						}
					}
					continue
				}
				t := *full
				t.grow()
			}
		})
	}
}

// TestPairTableAdd: Add returns the balance held before (none for a new
// key, the zero key included), adds with wrap-around, and counts pairs
// as Put does.
func TestPairTableAdd(t *testing.T) {
	tab, ref := newPairTable(0), map[pairKey]uint64{}
	r := rand.New(rand.NewPCG(17, 19))
	for i := range 50_000 {
		var k pairKey
		k[0], k[15] = byte(r.IntN(200)), byte(r.IntN(200)) // repeats, and the zero key
		d := r.Uint64()
		old, had := tab.Add(&k, d)
		w, wok := ref[k]
		if old != w || had != wok {
			t.Fatalf("op %d: Add %x = %d %v, want %d %v", i, k, old, had, w, wok)
		}
		ref[k] = w + d
	}
	if tab.Len() != len(ref) {
		t.Fatalf("Len %d, want %d", tab.Len(), len(ref))
	}
	for k, w := range ref {
		if v, ok := tab.Get(&k); !ok || v != w {
			t.Fatalf("Get %x = %d %v, want %d", k, v, ok, w)
		}
	}
}
