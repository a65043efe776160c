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
		{"one home slot", func(r *rand.Rand) pairKey {
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
