package asset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
)

// coreFixtures holds the MPL Core accounts and cases copied from the DAS
// conformance corpus (see its README.md).
const coreFixtures = "../chain/testdata/das/core"

type coreCase struct {
	Name    string `json:"name"`
	Request struct {
		Method string `json:"method"`
		Params struct {
			ID             string   `json:"id"`
			Options        *Options `json:"options"`
			DisplayOptions *Options `json:"displayOptions"`
		} `json:"params"`
	} `json:"request"`
	Seed struct {
		Apply []struct {
			Account string `json:"account"`
		} `json:"apply"`
	} `json:"seed"`
	Expected json.RawMessage `json:"expected_result"`
}

// loadCoreCase reads a case and decodes every account it seeds, by pubkey.
func loadCoreCase(t *testing.T, path string) (*coreCase, map[string]*core.CoreAccount) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c coreCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	accs := map[string]*core.CoreAccount{}
	for _, ap := range c.Seed.Apply {
		if ap.Account == "" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(coreFixtures, ap.Account))
		if err != nil {
			t.Fatal(err)
		}
		a, err := solana.ParseAccount(raw)
		if err != nil {
			t.Fatalf("%s: %v", ap.Account, err)
		}
		acc, err := core.DecodeCore(a.Owner, a.Data)
		if err != nil {
			t.Fatalf("%s: DecodeCore: %v", ap.Account, err)
		}
		accs[a.Pubkey.String()] = acc
	}
	return &c, accs
}

// renderCore renders id from the seeded accounts the way the API would:
// the asset's collection is passed when it was indexed too.
func renderCore(t *testing.T, id string, accs map[string]*core.CoreAccount, opts Options) []byte {
	t.Helper()
	acc, ok := accs[id]
	if !ok {
		t.Fatalf("%s not seeded", id)
	}
	var coll *core.CoreAccount
	if c, ok := acc.CollectionAddress(); ok {
		coll = accs[c.String()]
	}
	a, err := FromCore(mustKey(t, id), acc, coll, opts)
	if err != nil {
		t.Fatalf("FromCore(%s): %v", id, err)
	}
	if acc.Kind == core.CoreAsset {
		want := core.AssetSignerPDA(mustKey(t, id)).String()
		if a.AssetSigner == nil || *a.AssetSigner != want {
			t.Errorf("%s: asset_signer = %v, want %s", id, a.AssetSigner, want)
		}
	} else if a.AssetSigner != nil {
		t.Errorf("%s: asset_signer on a %s", id, acc.Kind)
	}
	// The documented additions REF does not emit.
	a.LastIndexedSlot, a.AssetSigner = nil, nil
	out, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFromCoreCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(coreFixtures, "cases", "mpl_core_*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no core cases under %s: %v", coreFixtures, err)
	}
	getAsset := 0
	for _, f := range files {
		c, accs := loadCoreCase(t, f)
		t.Run(c.Name, func(t *testing.T) {
			opts := Options{}
			if p := c.Request.Params.Options; p != nil {
				opts = *p
			} else if p := c.Request.Params.DisplayOptions; p != nil {
				opts = *p
			}
			if c.Request.Method == "getAsset" {
				getAsset++
				got := renderCore(t, c.Request.Params.ID, accs, opts)
				if err := jsonEqual(got, c.Expected); err != nil {
					t.Errorf("%v\n got: %s\nwant: %s", err, got, c.Expected)
				}
				checkView(t, func(o Options) ([]byte, error) { return renderCore(t, c.Request.Params.ID, accs, o), nil })
				return
			}
			// Listing cases: each item must render the same on its own.
			var list struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := json.Unmarshal(c.Expected, &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) == 0 {
				t.Fatal("listing case without items")
			}
			for _, item := range list.Items {
				var hdr struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(item, &hdr); err != nil {
					t.Fatal(err)
				}
				got := renderCore(t, hdr.ID, accs, opts)
				if err := jsonEqual(got, item); err != nil {
					t.Errorf("%s: %v\n got: %s\nwant: %s", hdr.ID, err, got, item)
				}
			}
		})
	}
	if getAsset != 19 {
		t.Errorf("ran %d getAsset cases, want the corpus' 19", getAsset)
	}
}

// TestFromCoreCollectionAuthority checks quirk 4 both ways: a collection
// member's authority is its collection's update authority, "" without it.
func TestFromCoreCollectionAuthority(t *testing.T) {
	_, accs := loadCoreCase(t, filepath.Join(coreFixtures, "cases", "mpl_core_get_assets_by_group.json"))
	id := mustKey(t, "kTMCCKLTaZsnSReer12HsciwScUwhHyZyd9D9BwQF8k")
	acc := accs[id.String()]
	coll := accs["JChzyyp1CnNz56tJLteQ5BsbngmWQ3JwcxLZrmuQA5b7"]
	tests := []struct {
		name string
		coll *core.CoreAccount
		want string
	}{
		{"with collection", coll, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7"},
		{"collection not indexed", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := FromCore(id, acc, tc.coll, Options{ShowUnverifiedCollections: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Authorities[0].Address; got != tc.want {
				t.Errorf("authority = %q, want %q", got, tc.want)
			}
			if len(a.Grouping) != 1 || a.Grouping[0].Verified == nil || !*a.Grouping[0].Verified {
				t.Errorf("grouping = %+v, want one verified collection", a.Grouping)
			}
		})
	}
}

func TestFromCoreBurnt(t *testing.T) {
	id := mustKey(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	tests := []struct {
		name string
		data []byte
	}{
		{"closed", nil},
		{"uninitialized byte", []byte{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acc, err := core.DecodeCore(core.CoreProgram(), tc.data)
			if err != nil {
				t.Fatal(err)
			}
			a, err := FromCore(id, acc, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Burnt || a.Interface != InterfaceMplCoreAsset || a.ID != id.String() {
				t.Errorf("got burnt=%v interface=%s id=%s", a.Burnt, a.Interface, a.ID)
			}
		})
	}
	// A kept live state marked burnt renders in full with burnt: true.
	_, accs := loadCoreCase(t, filepath.Join(coreFixtures, "cases", "mpl_core_get_asset.json"))
	live := *accs[id.String()]
	live.Burnt = true
	a, err := FromCore(id, &live, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Burnt || a.Content == nil || a.Content.Metadata.Name != "Test Asset" {
		t.Errorf("kept state: burnt=%v content=%+v", a.Burnt, a.Content)
	}
}

func TestFromCoreNil(t *testing.T) {
	if _, err := FromCore(solana.Pubkey{}, nil, nil, Options{}); err == nil {
		t.Error("FromCore(nil) succeeded")
	}
}

func TestSnakeCase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"BubblegumV2", "bubblegum_v2"},
		{"PermanentFreezeDelegate", "permanent_freeze_delegate"},
		{"LinkedAppData", "linked_app_data"},
		{"HTTPServer", "http_server"},
		{"myKey", "my_key"},
		{"already_snake", "already_snake"},
		{"  spaced out--x ", "spaced_out_x"},
		{"v2Thing", "v2_thing"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := snakeCase(tc.in); got != tc.want {
			t.Errorf("snakeCase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatF64(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1, "1.0"}, {1.5, "1.5"}, {0.001, "0.001"}, {0.00001, "0.00001"}, {0.000001, "1e-6"}, {1e20, "1e20"},
		{-2.25, "-2.25"}, {123456789012345678, "1.2345678901234568e17"}, {0, "0.0"},
	}
	for _, tc := range tests {
		if got := formatF64(tc.in); got != tc.want {
			t.Errorf("formatF64(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExternalData(t *testing.T) {
	tests := []struct {
		name   string
		schema core.CoreSchema
		data   []byte
		want   string
	}{
		{"binary", core.CoreSchemaBinary, []byte("Hello, world!"), `"SGVsbG8sIHdvcmxkIQ=="`},
		{"json object, keys snake_cased", core.CoreSchemaJSON, []byte(`{"myKey":{"innerKey":[1,2.50]}}`), `{"my_key":{"inner_key":[1,2.5]}}`},
		{"json that is not json", core.CoreSchemaJSON, []byte(`{oops`), `"{oops"`},
		{"msgpack map", core.CoreSchemaMsgPack, []byte{0x82, 0xa1, 'a', 0x01, 0xa2, 'b', 'C', 0x93, 0xc3, 0xc0, 0xd0, 0xff}, `{"a":1,"b_c":[true,null,-1]}`},
		{"msgpack int key falls back to base64", core.CoreSchemaMsgPack, []byte{0x81, 0x01, 0x02}, `"gQEC"`},
		{"msgpack truncated falls back to base64", core.CoreSchemaMsgPack, []byte{0x92, 0x01}, `"kgE="`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(externalData(tc.schema, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if err := jsonEqual(got, []byte(tc.want)); err != nil {
				t.Errorf("%v: got %s want %s", err, got, tc.want)
			}
		})
	}
}

// TestFromCoreUnknownPlugins renders an account whose registry holds an
// internal and an external plugin of types this code does not know.
func TestFromCoreUnknownPlugins(t *testing.T) {
	acc := &core.CoreAccount{
		Kind:            core.CoreAsset,
		UpdateAuthority: core.CoreUpdateAuthority{Type: core.CoreUAAddress},
		UnknownPlugins:  []core.CorePlugin{{Type: 200, Index: 0, Offset: 119, Authority: core.CoreAuthority{Type: core.CoreAuthOwner}, Raw: []byte{200, 1}}},
		UnknownExternalPlugins: []core.CoreExternalPlugin{{
			Type: 99, Index: 1, Offset: 121, Raw: []byte{99},
			LifecycleChecks: []core.CoreLifecycleCheck{{Event: 9, Flags: core.CoreCanListen}},
		}},
	}
	a, err := FromCore(solana.Pubkey{1}, acc, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ got, want string }{
		{string(a.UnknownPlugins), `[{"authority":{"address":null,"type":"Owner"},"data":"yAE=","index":0,"offset":119,"type":200}]`},
		{string(a.UnknownExternalPlugins), `[{"authority":{"address":null,"type":"None"},"index":1,"offset":121,"type":99,"unknown_adapter_config":"Yw==","unknown_lifecycle_checks":[[9,["CanListen"]]]}]`},
		{string(a.ExternalPlugins), `[]`},
		{string(a.Plugins), `{}`},
	}
	for _, c := range checks {
		if err := jsonEqual([]byte(c.got), []byte(c.want)); err != nil {
			t.Errorf("%v: got %s want %s", err, c.got, c.want)
		}
	}
}

func mustKey(t *testing.T, s string) solana.Pubkey {
	t.Helper()
	k, err := solana.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// jsonEqual compares two JSON documents as values: object key order is
// free, arrays are ordered, numbers compare by their text except
// royalty.percent, which compares numerically.
func jsonEqual(got, want []byte) error {
	g, err := decodeNumbers(got)
	if err != nil {
		return fmt.Errorf("got: %w", err)
	}
	w, err := decodeNumbers(want)
	if err != nil {
		return fmt.Errorf("want: %w", err)
	}
	return valueEqual(g, w, "$")
}

func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func valueEqual(g, w any, path string) error {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: got %T, want object", path, g)
		}
		var keys []string
		for k := range wv {
			keys = append(keys, k)
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			ge, gok := gv[k]
			we, wok := wv[k]
			if gok != wok {
				return fmt.Errorf("%s.%s: present in got=%v want=%v", path, k, gok, wok)
			}
			if err := valueEqual(ge, we, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Errorf("%s: got %v, want %d-element array", path, g, len(wv))
		}
		for i := range wv {
			if err := valueEqual(gv[i], wv[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		gv, ok := g.(json.Number)
		if !ok {
			return fmt.Errorf("%s: got %v, want number %s", path, g, wv)
		}
		if strings.HasSuffix(path, ".royalty.percent") {
			gf, err1 := strconv.ParseFloat(string(gv), 64)
			wf, err2 := strconv.ParseFloat(string(wv), 64)
			if err1 != nil || err2 != nil || gf != wf {
				return fmt.Errorf("%s: got %s, want %s", path, gv, wv)
			}
			return nil
		}
		if gv != wv {
			return fmt.Errorf("%s: got %s, want %s", path, gv, wv)
		}
		return nil
	default:
		if g != w {
			return fmt.Errorf("%s: got %v, want %v", path, g, w)
		}
		return nil
	}
}

func TestFromCoreGroupAndAgent(t *testing.T) {
	ua := mustKey(t, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7")
	group := &core.CoreAccount{Kind: core.CoreGroup, Name: "G", UpdateAuthority: core.CoreUpdateAuthority{Type: core.CoreUAAddress, Address: ua}, Group: &core.CoreGroupData{}}
	g, err := FromCore(solana.Pubkey{2}, group, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Interface != InterfaceMplCoreGroup || g.Ownership.Owner != ua.String() || g.Authorities[0].Address != ua.String() || g.AssetSigner != nil {
		t.Errorf("group rendered as %+v", g)
	}

	agent := &core.CoreAccount{
		Kind: core.CoreAsset, Owner: ua, UpdateAuthority: core.CoreUpdateAuthority{Type: core.CoreUAAddress, Address: ua},
		ExternalPlugins: []core.CoreExternalPlugin{{Type: core.CoreAgentIdentityAdapter, Offset: 119, Adapter: core.CoreAgentIdentity{URI: "https://example.com/agent.json"}}},
	}
	a, err := FromCore(solana.Pubkey{3}, agent, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.IsAgent {
		t.Error("asset with an AgentIdentity adapter is not an agent")
	}
	want := `[{"type":"AgentIdentity","index":0,"offset":119,"authority":{"type":"None","address":null},"adapter_config":{"uri":"https://example.com/agent.json"}}]`
	if err := jsonEqual(a.ExternalPlugins, []byte(want)); err != nil {
		t.Errorf("%v: got %s", err, a.ExternalPlugins)
	}
	plain, err := FromCore(solana.Pubkey{3}, &core.CoreAccount{Kind: core.CoreAsset}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Update authority None: immutable, authority the default key.
	if plain.IsAgent || plain.Mutable || plain.Authorities[0].Address != "11111111111111111111111111111111" {
		t.Errorf("plain asset: is_agent=%v mutable=%v authorities=%v", plain.IsAgent, plain.Mutable, plain.Authorities)
	}
}
