package das

import (
	"testing"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// FuzzCNFTParams runs getAssetProof, getAssetProofs or getAssetSignatures,
// picked by the first input, on fuzzed params over a store holding a
// minted, transferred and burnt cNFT: every outcome must be a result that
// encodes or a client error, never a panic or the internal error.
// `go test ./api/das -run '^$' -fuzz FuzzCNFTParams` explores.
func FuzzCNFTParams(f *testing.F) {
	id := `"` + assetBurnt + `"`
	for i, s := range []string{
		`{"id":` + id + `}`, `[` + id + `]`, `{"ids":[` + id + `,"11111111111111111111111111111111"]}`, `[[` + id + `]]`,
		`{"id":` + id + `,"limit":1,"page":2,"sortDirection":"asc"}`,
		`{"tree":"` + treeBurnt + `","leafIndex":0,"before":"` + sigBurn + `"}`,
		`{"id":` + id + `,"cursor":"` + sigMint + `","sortDirection":"desc"}`,
		`{"id":` + id + `,"after":"` + sigMint + `","before":"` + sigBurn + `"}`,
		`[` + id + `,1,null,null,null,null,null,"` + sigBurn + `","asc"]`,
		`{"tree":"` + treeBurnt + `","leafIndex":18446744073709551615}`, `{"leafIndex":-1}`, `{}`, `[]`, `null`,
	} {
		for m := 0; m < 3; m++ {
			f.Add(uint8(m+i), s)
		}
	}
	var reg *jsonrpc.Registry
	methods := []string{"getAssetProof", "getAssetProofs", "getAssetSignatures"}
	f.Fuzz(func(t *testing.T, pick uint8, params string) {
		if reg == nil { // one store for the whole run
			s := storetest.Open(t)
			(&env{t: t, s: s}).indexCorpus(txMint, txTransfer, txBurn)
			reg = jsonrpc.NewRegistry()
			Register(reg, Deps{Store: s, Slots: checkpoint.NewSlotCache(s, 0)})
		}
		m := methods[int(pick)%len(methods)]
		h, _ := reg.Lookup(m)
		if err := fuzzCall(h, m, params); err != nil {
			t.Fatalf("%s %q: %v", m, params, err)
		}
	})
}
