package das

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/rpctest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// FuzzParams runs a DAS method, picked by the first input, on fuzzed
// params over a store holding a fungible token, an NFT and an MPL Core
// asset: every outcome must be a result that encodes or a client error,
// never a panic or the internal error. The seeds run in make test;
// `go test ./api/das -run '^$' -fuzz FuzzParams` explores.
func FuzzParams(f *testing.F) {
	id := `"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"`
	core := `"x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr"`
	for i, s := range []string{
		`{"id":` + id + `}`, `{"id":` + core + `,"options":{"showFungible":true}}`,
		`{"ids":[` + id + `,` + core + `],"displayOptions":{"showUnverifiedCollections":true}}`,
		`[` + id + `]`, `[[` + id + `],{"showInscription":true}]`, `{"ids":[]}`, `{}`, `[]`, `null`,
		`{"id":"0OIl"}`, `{"options":{"showFungible":true}}`, `{"id":` + id + `,"options":{"showZeroBalance":1}}`,
	} {
		for m := 0; m < 3; m++ {
			f.Add(uint8(m+i), s)
		}
	}
	var reg *jsonrpc.Registry
	methods := []string{"getAsset", "getAssetBatch", "getAssets"}
	f.Fuzz(func(t *testing.T, pick uint8, params string) {
		if reg == nil { // one store for the whole run
			reg = fuzzRegistry(t)
		}
		m := methods[int(pick)%len(methods)]
		h, _ := reg.Lookup(m)
		if err := fuzzCall(h, m, params); err != nil {
			t.Fatalf("%s %q: %v", m, params, err)
		}
	})
}

// fuzzRegistry indexes the fixtures into the shared test store and
// registers the DAS methods over it.
func fuzzRegistry(t *testing.T) *jsonrpc.Registry {
	t.Helper()
	s := storetest.Open(t)
	(&env{t: t, s: s}).index(
		"accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json",
		"accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json",
		"accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json",
	)
	reg := jsonrpc.NewRegistry()
	Register(reg, Deps{Store: s, Slots: checkpoint.NewSlotCache(s, 0)})
	// The fixtures reached the store: the seeds exercise rendering.
	h, _ := reg.Lookup("getAsset")
	res, err := h(context.Background(), &jsonrpc.Call{Method: "getAsset",
		Params: json.RawMessage(`{"id":"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"}`)})
	if err != nil {
		t.Fatalf("stored asset: %v", err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"interface"`) {
		t.Fatalf("stored asset not rendered: %.200s", b)
	}
	return reg
}

// fuzzCall runs one call: nil when it answered a result that encodes or
// a client error.
func fuzzCall(h jsonrpc.Handler, method, params string) error {
	je, err := rpctest.Call(h, method, params)
	if err == nil && je != nil && (je.Code == codeServer || je.Code == jsonrpc.CodeInternalError) {
		return fmt.Errorf("internal error: %s", je.Message)
	}
	return err
}
