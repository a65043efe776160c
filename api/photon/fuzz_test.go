package photon

import (
	"testing"
)

// FuzzParams runs a Photon method, picked by the first input, on fuzzed
// params over a store with rows: every outcome must be a result that
// encodes or a client error (hostileCall). The seeds run in make test;
// `go test ./api/photon -run '^$' -fuzz FuzzParams` explores.
func FuzzParams(f *testing.F) {
	k := keyB58(key(1))
	for i, s := range []string{
		`{"owner":"` + k + `","filters":[{"memcmp":{"offset":1,"bytes":"2"}}],"dataSlice":{"offset":0,"length":1}}`,
		`{"mint":"` + k + `","cursor":"` + k + `","limit":1}`,
		`{"hashes":["` + k + `"],"newAddressesWithTrees":[{"address":"` + k + `","tree":"` + k + `"}]}`,
		`["` + k + `",null,5]`, `{"hash":"` + k + `"}`, `{"address":"` + k + `"}`, `{"limit":0,"cursor":"x"}`,
		`["` + k + `"]`, `[]`, `{}`, `null`,
	} {
		for m := 0; m < 40; m += 7 {
			f.Add(uint8(m+i), s)
		}
	}
	var e *env
	var methods []string
	f.Fuzz(func(t *testing.T, pick uint8, params string) {
		if e == nil { // one store for the whole run
			e = newEnv(t, true)
			no, k1 := false, key(1)
			e.insertAccount("compressed_accounts", 1, 1, 1, 1, 5, nil, &k1)
			e.insertAccount("compressed_by_owner", 1, 1, 1, 1, 5, &no, &k1)
			e.insertAccount("token_accounts", 1, 1, 1, 1, 5, &no, &k1)
			methods = e.reg.Methods()
		}
		m := methods[int(pick)%len(methods)]
		h, _ := e.reg.Lookup(m)
		if _, err := hostileCall(h, m, params); err != nil {
			t.Fatalf("%s %q: %v", m, params, err)
		}
	})
}
