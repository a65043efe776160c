package das

import (
	"testing"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// FuzzListParams runs a list, search, token-account or edition method,
// picked by the first input, on fuzzed params over the fuzz store: every
// outcome must be a result that encodes or a client error, never a panic
// or the internal error (a bad cursor, sort or condition must not reach
// the SQL). `go test ./api/das -run '^$' -fuzz FuzzListParams` explores.
func FuzzListParams(f *testing.F) {
	owner := `"GqPnSDXwp4JFtKS7YZ2HERgBbYLKpKVYy9TpVunzLRa9"`
	mint := `"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"`
	for i, s := range []string{
		`{"ownerAddress":` + owner + `}`, `{"ownerAddress":` + owner + `,"limit":2,"page":3}`,
		`{"ownerAddress":` + owner + `,"cursor":` + mint + `,"sortBy":{"sortBy":"id","sortDirection":"asc"}}`,
		`{"ownerAddress":` + owner + `,"before":` + mint + `,"after":` + owner + `}`,
		`{"groupKey":"collection","groupValue":` + mint + `,"options":{"showGrandTotal":true}}`,
		`{"creatorAddress":` + owner + `,"onlyVerified":true}`, `{"authorityAddress":` + owner + `}`,
		`{"conditionType":"any","negate":true,"ownerAddress":` + owner + `,"name":"'); DROP TABLE x; --"}`,
		`{"grouping":["collection","x' OR 1=1"],"jsonUri":"\\'","supply":18446744073709551615}`,
		`{"ownerAddress":` + owner + `,"tokenType":"fungible","sortBy":{"sortBy":"recent_action"},"page":1}`,
		`{"mintAddress":` + mint + `,"options":{"showZeroBalance":true}}`, `{"mintAddress":` + mint + `,"limit":0}`,
		`[` + owner + `,{"sortBy":"created"},5,1]`, `{"limit":-1}`, `{"page":4294967296}`, `{}`, `null`,
	} {
		for m := 0; m < 4; m++ {
			f.Add(uint8(m+i), s)
		}
	}
	var reg *jsonrpc.Registry
	methods := []string{"getAssetsByOwner", "getAssetsByGroup", "getAssetsByCreator", "getAssetsByAuthority",
		"searchAssets", "getTokenAccounts", "getNftEditions", "getGrouping"}
	f.Fuzz(func(t *testing.T, pick uint8, params string) {
		if reg == nil {
			reg = fuzzRegistry(t)
		}
		m := methods[int(pick)%len(methods)]
		h, _ := reg.Lookup(m)
		if err := fuzzCall(h, m, params); err != nil {
			t.Fatalf("%s %q: %v", m, params, err)
		}
	})
}
