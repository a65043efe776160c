package compressed

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
}
