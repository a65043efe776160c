package das_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
)

// inputNames maps a listing method's wire params, as the corpus records
// them, to the input names of the client's typed method (decorator.js);
// a param without an entry keeps its name. A case param the client has
// no input for would be dropped silently, so the test refuses it.
var inputNames = map[string]map[string]string{
	"getAssetsByOwner":     {"ownerAddress": "owner"},
	"getAssetsByGroup":     {"groupKey": "groupKey", "groupValue": "groupValue"},
	"getAssetsByCreator":   {"creatorAddress": "creator", "onlyVerified": "onlyVerified"},
	"getAssetsByAuthority": {"authorityAddress": "authority"},
	"searchAssets": {"ownerAddress": "owner", "creatorAddress": "creator", "authorityAddress": "authority",
		"tokenType": "tokenType", "interface": "interface", "burnt": "burnt", "grouping": "grouping"},
	"getTokenAccounts": {"ownerAddress": "ownerAddress", "mintAddress": "mintAddress"},
	"getNftEditions":   {"mintAddress": "mintAddress"},
}

// pageInputs are the paging and display members every listing input has
// under its wire name.
var pageInputs = []string{"sortBy", "limit", "page", "before", "after", "cursor", "displayOptions"}

// call is one entry of listings.mjs's calls.
type call struct {
	URL    string         `json:"url"`
	Name   string         `json:"name"`
	Method string         `json:"method"`
	Input  map[string]any `json:"input"`
	Kind   string         `json:"kind,omitempty"`
	Helius bool           `json:"helius,omitempty"`
}

// listed is listings.mjs's record of a list answer.
type listed struct {
	Head map[string]any `json:"head"`
	IDs  []string       `json:"ids"`
}

// store is the cases that index the same fixture files.
type store struct {
	files []string
	cases []*e2ekit.DASCase
}

// TestDASListings runs every listing case of the corpus through the
// client. Each set of fixtures gets its own store and `dasch serve`; the
// stores are indexed in parallel subtests and served together, and one
// listings.mjs run makes every call, as Node's start is the slow part.
func TestDASListings(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs the @metaplex-foundation/digital-asset-standard-api client under Node.js", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	stores := listingStores(t)
	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)

	storeURLs := make([]string, len(stores))
	keys := make([]string, len(stores))
	dirs := make([]string, len(stores))
	for i := range stores {
		dirs[i] = t.TempDir()
	}
	// A group, so the parallel subtests end before the stores are served.
	t.Run("index", func(t *testing.T) {
		for i, s := range stores {
			t.Run(s.cases[0].Name, func(t *testing.T) {
				t.Parallel()
				storeURLs[i], keys[i] = e2ekit.Index(t, ctx, bin, dirs[i], s.files)
			})
		}
	})
	if t.Failed() {
		return
	}
	bases := e2ekit.ServeAll(t, ctx, bin, storeURLs)

	var calls []call
	for i, s := range stores {
		url := bases[i] + "/?api-key=" + keys[i]
		for _, c := range s.cases {
			calls = append(calls, caseCalls(t, url, c)...)
		}
		for _, x := range extraCalls[s.cases[0].Name] {
			x.call.URL = url
			calls = append(calls, x.call)
		}
	}
	summary := listings(t, ctx, calls)

	for _, s := range stores {
		t.Run(s.cases[0].Name, func(t *testing.T) {
			for _, c := range s.cases {
				checkCase(t, summary, c)
			}
			for _, x := range extraCalls[s.cases[0].Name] {
				if x.check != nil {
					x.check(t, summary)
				}
			}
		})
	}
}

// listingStores reads the corpus's listing cases and groups those that
// index the same files: they were answered on the same indexed state.
func listingStores(t *testing.T) []*store {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(e2ekit.DASCorpus, "cases", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*store
	bySet := map[string]*store{}
	for _, p := range paths {
		c := e2ekit.LoadDASCase(t, strings.TrimSuffix(filepath.Base(p), ".json"))
		if _, ok := inputNames[c.Request.Method]; !ok {
			continue
		}
		files := c.Files()
		set := strings.Join(files, "\n")
		s := bySet[set]
		if s == nil {
			s = &store{files: files}
			bySet[set] = s
			out = append(out, s)
		}
		s.cases = append(s.cases, c)
	}
	// Every listing method the corpus has, so none is left out unnoticed.
	methods := map[string]bool{}
	n := 0
	for _, s := range out {
		for _, c := range s.cases {
			methods[c.Request.Method] = true
			n++
		}
	}
	if len(methods) != len(inputNames) || n < 19 {
		t.Fatalf("%d listing cases of methods %v, want at least 19 covering all of %d", n, methods, len(inputNames))
	}
	return out
}

// caseCalls is the client call of case c, and for getTokenAccounts and
// getNftEditions the same call again with the client's Helius spellings.
func caseCalls(t *testing.T, url string, c *e2ekit.DASCase) []call {
	t.Helper()
	names := inputNames[c.Request.Method]
	input := map[string]any{}
	for k, raw := range c.Request.Params {
		name, ok := names[k]
		if !ok && slices.Contains(pageInputs, k) {
			name, ok = k, true
		}
		if !ok {
			t.Fatalf("case %s: param %s has no input of the client's %s", c.Name, k, c.Request.Method)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		input[name] = v
	}
	out := []call{{URL: url, Name: c.Name, Method: c.Request.Method, Input: input}}
	if m := c.Request.Method; m == "getTokenAccounts" || m == "getNftEditions" {
		out = append(out, call{URL: url, Name: c.Name + "/helius", Method: m, Input: input, Helius: true})
	}
	return out
}

// checkCase compares the client's answers for c with the case's expected
// result: every member but the list as a JSON value (absent stays absent),
// and the list's ids in order.
func checkCase(t *testing.T, summary map[string]json.RawMessage, c *e2ekit.DASCase) {
	t.Helper()
	want := expectedList(t, c)
	for _, name := range []string{c.Name, c.Name + "/helius"} {
		if name != c.Name && c.Request.Method != "getTokenAccounts" && c.Request.Method != "getNftEditions" {
			continue
		}
		var got listed
		if !e2ekit.Decode(t, summary, name, &got) {
			continue
		}
		if !reflect.DeepEqual(got.Head, want.Head) {
			t.Errorf("%s %s: members %s, want %s", c.Request.Method, name, e2ekit.Show(got.Head), e2ekit.Show(want.Head))
		}
		if !slices.Equal(got.IDs, want.IDs) {
			t.Errorf("%s %s: ids %v, want %v", c.Request.Method, name, got.IDs, want.IDs)
		}
	}
}

// expectedList is the case's expected_result as listings.mjs records an
// answer.
func expectedList(t *testing.T, c *e2ekit.DASCase) listed {
	t.Helper()
	head, ids, _ := c.ExpectedList(t)
	return listed{Head: head, IDs: ids}
}

// listings runs listings.mjs with calls.
func listings(t *testing.T, ctx context.Context, calls []call) map[string]json.RawMessage {
	t.Helper()
	arg, err := json.Marshal(map[string]any{"calls": calls})
	if err != nil {
		t.Fatal(err)
	}
	return e2ekit.Script(t, ctx, "digital-asset-standard-api", "listings.mjs", string(arg))
}

// extra is a call beyond a case's own, with its check.
type extra struct {
	call  call
	check func(t *testing.T, summary map[string]json.RawMessage)
}

// The collection of mpl_core_get_assets_by_group and its three assets.
const coreCollection = "JChzyyp1CnNz56tJLteQ5BsbngmWQ3JwcxLZrmuQA5b7"

var coreAssets = []string{
	"kTMCCKLTaZsnSReer12HsciwScUwhHyZyd9D9BwQF8k",
	"EgzsppfYJmUet4ve8MnuHMyvSnj6R7LRmwsGEH5TuGhB",
	"J2kazVRuZ33Po4PVyZGxiDYUMQ1eZiT5Xa13usRYo264",
}

// extraCalls are calls on a store beyond its cases, by the store's first
// case.
var extraCalls = map[string][]extra{
	// The client sends its searchAssets input delegate as delegateAddress,
	// which dasch takes beside delegate: the owner delegated nothing.
	"search_asset_with_token_type_non_fungible": {{
		call: call{Name: "search/delegate", Method: "searchAssets",
			Input: map[string]any{"owner": "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g", "delegate": "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g"}},
		check: func(t *testing.T, summary map[string]json.RawMessage) {
			var got listed
			if e2ekit.Decode(t, summary, "search/delegate", &got) && len(got.IDs) != 0 {
				t.Errorf("searchAssets with delegate: %v, want no asset", got.IDs)
			}
		},
	}},
	"mpl_core_get_assets_by_group": {
		// The whole collection at once, in the default (id) order.
		{call: call{Name: "group/all", Method: "getAssetsByGroup",
			Input: map[string]any{"groupKey": "collection", "groupValue": coreCollection}}},
		// Then one asset a page, following the cursor to an empty page.
		{
			call: call{Name: "group/pages", Method: "getAssetsByGroup", Kind: "pages",
				Input: map[string]any{"groupKey": "collection", "groupValue": coreCollection, "limit": 1}},
			check: checkGroupPages,
		},
		{
			call: call{Name: "grouping", Method: "getGrouping", Kind: "raw",
				Input: map[string]any{"groupKey": "collection", "groupValue": coreCollection}},
			check: func(t *testing.T, summary map[string]json.RawMessage) {
				var got any
				want := map[string]any{"group_key": "collection", "group_name": coreCollection, "group_size": float64(len(coreAssets))}
				if e2ekit.Decode(t, summary, "grouping", &got) && !reflect.DeepEqual(got, want) {
					t.Errorf("getGrouping = %s, want %s", e2ekit.Show(got), e2ekit.Show(want))
				}
			},
		},
		// Over the limit, and a group value that is not an address: the
		// client's transport throws the server's 400 / -32602 answer.
		{
			call: call{Name: "group/limit", Method: "getAssetsByGroup", Kind: "failure",
				Input: map[string]any{"groupKey": "collection", "groupValue": coreCollection, "limit": 1001}},
			check: func(t *testing.T, summary map[string]json.RawMessage) {
				rpcFailure(t, summary, "group/limit", 400, -32602)
				wantMessage(t, summary, "group/limit", "Pagination Error. Limit should not be greater than 1000.")
			},
		},
		{
			call: call{Name: "group/malformed", Method: "getAssetsByGroup", Kind: "failure",
				Input: map[string]any{"groupKey": "collection", "groupValue": malformed}},
			check: func(t *testing.T, summary map[string]json.RawMessage) {
				rpcFailure(t, summary, "group/malformed", 400, -32602)
				wantMessage(t, summary, "group/malformed", "Pubkey Validation Err: "+malformed+" is invalid")
			},
		},
	},
}

// checkGroupPages checks the limit-1 pages of the collection: one asset
// each with its id as cursor, then an empty page without one, and
// together the whole listing in its order, each asset once.
func checkGroupPages(t *testing.T, summary map[string]json.RawMessage) {
	t.Helper()
	var pages []listed
	var all listed
	if !e2ekit.Decode(t, summary, "group/pages", &pages) || !e2ekit.Decode(t, summary, "group/all", &all) {
		return
	}
	var ids []string
	for i, p := range pages {
		want := map[string]any{"total": float64(0), "limit": float64(1)}
		n := 0
		if i < len(pages)-1 {
			n = 1
			want["total"] = float64(1)
			if len(p.IDs) == 1 {
				want["cursor"] = p.IDs[0]
			}
		}
		if len(p.IDs) != n || !reflect.DeepEqual(p.Head, want) {
			t.Errorf("page %d of %d: %s %v, want %s and %d id(s)", i+1, len(pages), e2ekit.Show(p.Head), p.IDs, e2ekit.Show(want), n)
		}
		ids = append(ids, p.IDs...)
	}
	if !slices.Equal(ids, all.IDs) {
		t.Errorf("pages list %v, the whole listing is %v", ids, all.IDs)
	}
	sorted := slices.Sorted(slices.Values(ids))
	want := slices.Sorted(slices.Values(coreAssets))
	if !slices.Equal(slices.Compact(sorted), want) || len(ids) != len(coreAssets) {
		t.Errorf("pages list %v, want each of %v once", ids, coreAssets)
	}
}

// wantMessage checks that the failure's message carries the server's
// answer with the JSON-RPC error message msg (rpcFailure checks the rest).
func wantMessage(t *testing.T, summary map[string]json.RawMessage, name, msg string) {
	t.Helper()
	var f failure
	if !e2ekit.Decode(t, summary, name, &f) {
		return
	}
	_, body, _ := strings.Cut(f.Message, ": ")
	var resp struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &resp) != nil || resp.Error.Message != msg {
		t.Errorf("%s: the client threw %q, want the server's message %q", name, f.Message, msg)
	}
}
