package compressed

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// TestPairDigestMatchesEngine compares pairDigest with the engine's
// sipHash128Reference(concat(owner, mint)) for seeded random keys and the
// edge keys: the balance copy is keyed by the digests token_balances
// stores, so one differing bit would make every lookup miss.
func TestPairDigestMatchesEngine(t *testing.T) {
	s := storetest.Open(t)
	r := rand.New(rand.NewPCG(3, 5))
	var zero, ones [32]byte
	for i := range ones {
		ones[i] = 0xff
	}
	cases := [][2][32]byte{{zero, zero}, {ones, ones}, {zero, ones}}
	for range 200 {
		var o, m [32]byte
		for i := range o {
			o[i], m[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		cases = append(cases, [2][32]byte{o, m})
	}
	for _, c := range cases {
		res, err := s.Query(context.Background(),
			`SELECT hex(sipHash128Reference(concat({o:FixedString(32)}, {m:FixedString(32)})))`,
			store.Params{"o": string(c[0][:]), "m": string(c[1][:])})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := res.Rows[0][0].(string)
		got := pairDigest(c[0][:], c[1][:])
		if g := hex.EncodeToString(got[:]); !strings.EqualFold(g, want) {
			t.Fatalf("owner %x mint %x: digest %s, engine %s", c[0], c[1], g, want)
		}
	}
}
