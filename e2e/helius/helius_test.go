// Package helius_test checks dasch's DAS methods against the Helius SDK,
// helius-sdk (the version pinned in package.json), pointed at dasch with
// its baseUrl option.
//
// The test needs node and npm on PATH, and skips without them. It installs
// the pinned packages with `npm ci` from the machine's npm cache, builds
// bin/dasch, indexes fixtures of the DAS corpus (testdata/das) into two
// stores, serves them on loopback, and runs client.mjs against the
// servers. What the SDK must return comes from the corpus cases whose
// fixtures each store holds.
package helius_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
	"github.com/dasch-labs/dasch/internal/rpcnode"
)

// The stores: each holds the fixtures of these cases. The cases of a store
// list disjoint owners, creators, authorities, groups and mints, so each
// answers there as in its own store.
var storeCases = [][]string{
	{
		"mpl_core_get_asset",
		"mpl_core_get_assets_by_group",
		"get_asset_by_owner_with_show_fungible",
		"get_token_accounts_by_mint",
		"get_nft_editions",
		"search_asset_with_token_type_compressed",
		// A compressed NFT minted as its tree's first leaf, then moved:
		// the tree's whole history is indexed, so proofs verify.
		"mint_transfer_mpl_programs",
	},
	// One owner's two NFTs and one fungible token.
	{
		"search_asset_with_token_type_non_fungible",
		"search_asset_with_token_type_fungible",
	},
}

const (
	// missing is a well-formed id (the system program's) with no asset.
	missing = "11111111111111111111111111111111"
	// malformed is not base58 (0, O, I and l are not in its alphabet).
	malformed = "0OIl-not-an-asset-id"
)

// call is one entry of client.mjs's calls.
type call struct {
	Base   string         `json:"base"`
	Key    string         `json:"key"`
	Name   string         `json:"name"`
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
	Kind   string         `json:"kind,omitempty"`
}

// listed is client.mjs's record of a list answer.
type listed struct {
	Head     map[string]any `json:"head"`
	IDs      []string       `json:"ids"`
	Editions []edition      `json:"editions"`
}

type edition struct {
	Mint    string  `json:"mint"`
	Edition float64 `json:"edition"`
}

// view is client.mjs's record of an asset.
type view struct {
	Interface  string `json:"interface"`
	ID         string `json:"id"`
	Name       string `json:"name"`
	Owner      string `json:"owner"`
	Compressed bool   `json:"compressed"`
}

// failure is client.mjs's record of a call expected to fail.
type failure struct {
	Threw      bool            `json:"threw"`
	Name       string          `json:"name"`
	Message    string          `json:"message"`
	StatusCode int             `json:"statusCode"`
	Value      json.RawMessage `json:"value"`
}

func TestHeliusSDK(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs the helius-sdk client under Node.js", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	cases := map[string]*e2ekit.DASCase{}
	files := make([][]string, len(storeCases))
	for i, names := range storeCases {
		seen := map[string]bool{}
		for _, name := range names {
			c := e2ekit.LoadDASCase(t, name)
			cases[name] = c
			for _, f := range c.Files() {
				if !seen[f] {
					seen[f] = true
					files[i] = append(files[i], f)
				}
			}
		}
	}
	// search_asset_with_token_type_all_scenario_2 was answered on the same
	// transactions as ..._compressed: its expected result holds there.
	cases["search_asset_with_token_type_all_scenario_2"] = e2ekit.LoadDASCase(t, "search_asset_with_token_type_all_scenario_2")

	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)
	storeURLs := make([]string, len(files))
	keys := make([]string, len(files))
	dirs := make([]string, len(files))
	for i := range files {
		dirs[i] = t.TempDir()
	}
	t.Run("index", func(t *testing.T) {
		for i := range files {
			t.Run(storeCases[i][0], func(t *testing.T) {
				t.Parallel()
				storeURLs[i], keys[i] = e2ekit.Index(t, ctx, bin, dirs[i], files[i])
			})
		}
	})
	if t.Failed() {
		return
	}
	// Standard Solana methods go to the node behind dasch.
	node := rpcnode.New(map[uint64][]byte{nodeSlot: []byte(`{}`)})
	defer node.Close()
	lamports := solana.Pubkey{1}
	node.SetAccount(1, lamports, &rpcnode.Account{Owner: solana.Pubkey{}, Lamports: 1234})
	bases := e2ekit.ServeAll(t, ctx, bin, storeURLs, "--rpc-upstream", node.URL())

	checks := sdkChecks(cases)
	var calls []call
	for _, c := range checks {
		c.call.Base, c.call.Key = bases[c.store]+"/"+c.path, keys[c.store]
		calls = append(calls, c.call)
	}
	arg, err := json.Marshal(map[string]any{"calls": calls})
	if err != nil {
		t.Fatal(err)
	}
	summary := e2ekit.Client(t, ctx, "helius-sdk", string(arg))
	for _, c := range checks {
		t.Run(c.call.Name, func(t *testing.T) { c.check(t, summary) })
	}
}

// nodeSlot is the newest slot of the node behind dasch.
const nodeSlot = 88

// check is one SDK call on a store and what its answer must be.
type check struct {
	store int
	// path is appended to the server's URL: a wrong one for the unknown
	// path check, empty otherwise.
	path  string
	call  call
	check func(t *testing.T, summary map[string]json.RawMessage)
}

// sdkChecks are the calls, with the cases that know their answers.
func sdkChecks(cases map[string]*e2ekit.DASCase) []check {
	var out []check
	add := func(store int, name, method string, params map[string]any, kind string, fn func(t *testing.T, name string, summary map[string]json.RawMessage)) {
		out = append(out, check{store: store, call: call{Name: name, Method: method, Params: params, Kind: kind},
			check: func(t *testing.T, summary map[string]json.RawMessage) { fn(t, name, summary) }})
	}
	// listCase checks a list call against the case's expected result:
	// every member but the list, and the ids in order.
	listCase := func(kase string) func(t *testing.T, name string, summary map[string]json.RawMessage) {
		return func(t *testing.T, name string, summary map[string]json.RawMessage) {
			head, ids, items := cases[kase].ExpectedList(t)
			var got listed
			if !e2ekit.Decode(t, summary, name, &got) {
				return
			}
			if !reflect.DeepEqual(got.Head, head) {
				t.Errorf("%s: members %s, want %s (case %s)", name, e2ekit.Show(got.Head), e2ekit.Show(head), kase)
			}
			if !slices.Equal(got.IDs, ids) {
				t.Errorf("%s: ids %v, want %v (case %s)", name, got.IDs, ids, kase)
			}
			// Editions carry Helius's members too: the SDK types
			// mint and edition, the reference's mint_address and
			// edition_number.
			if got.Editions != nil || cases[kase].Request.Method == "getNftEditions" {
				var want []edition
				for _, it := range items {
					n, _ := it["edition_number"].(float64)
					m, _ := it["mint_address"].(string)
					want = append(want, edition{Mint: m, Edition: n})
				}
				if !slices.Equal(got.Editions, want) {
					t.Errorf("%s: editions (mint, edition) %v, want %v", name, got.Editions, want)
				}
			}
		}
	}
	// params is the case's request params, with changes.
	params := func(kase string, set map[string]any) map[string]any {
		p := map[string]any{}
		for k, raw := range cases[kase].Request.Params {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				panic(err)
			}
			p[k] = v
		}
		for k, v := range set {
			if v == nil {
				delete(p, k)
			} else {
				p[k] = v
			}
		}
		return p
	}
	// asset is the view of the asset case kase expects, or of its
	// list's first item.
	asset := func(kase string) *view {
		var a struct {
			Interface string `json:"interface"`
			ID        string `json:"id"`
			Content   struct {
				Metadata struct {
					Name string `json:"name"`
				} `json:"metadata"`
			} `json:"content"`
			Ownership struct {
				Owner string `json:"owner"`
			} `json:"ownership"`
			Compression struct {
				Compressed bool `json:"compressed"`
			} `json:"compression"`
			Items []json.RawMessage `json:"items"`
		}
		raw := cases[kase].Expected
		if err := json.Unmarshal(raw, &a); err == nil && len(a.Items) > 0 {
			raw = a.Items[0]
			a.Items = nil
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			panic(err)
		}
		return &view{Interface: a.Interface, ID: a.ID, Name: a.Content.Metadata.Name, Owner: a.Ownership.Owner, Compressed: a.Compression.Compressed}
	}
	assetCheck := func(want any) func(t *testing.T, name string, summary map[string]json.RawMessage) {
		return func(t *testing.T, name string, summary map[string]json.RawMessage) {
			var got any
			if e2ekit.Decode(t, summary, name, &got) && !reflect.DeepEqual(got, asJSON(want)) {
				t.Errorf("%s = %s, want %s", name, e2ekit.Show(got), e2ekit.Show(want))
			}
		}
	}

	core, owner := 0, 1

	// getAsset and getAssetBatch: a Core asset and a Token Metadata NFT,
	// and in the batch a missing id between them, answered as null.
	coreAsset, nft := asset("mpl_core_get_asset"), asset("get_asset_by_owner_with_show_fungible")
	add(core, "getAsset/core", "getAsset", map[string]any{"id": coreAsset.ID}, "asset", assetCheck(coreAsset))
	add(core, "getAsset/nft", "getAsset", map[string]any{"id": nft.ID, "options": map[string]any{"showFungible": true}}, "asset", assetCheck(nft))
	add(core, "getAssetBatch", "getAssetBatch", map[string]any{"ids": []string{nft.ID, missing, coreAsset.ID}}, "assets",
		assetCheck([]*view{nft, nil, coreAsset}))

	// The listing cases, with the SDK's param names where they differ
	// from the corpus's: options beside displayOptions, owner / mint.
	add(core, "getAssetsByGroup", "getAssetsByGroup", params("mpl_core_get_assets_by_group", nil), "",
		listCase("mpl_core_get_assets_by_group"))
	add(core, "getAssetsByOwner", "getAssetsByOwner", params("get_asset_by_owner_with_show_fungible", nil), "",
		listCase("get_asset_by_owner_with_show_fungible"))
	// The creator and authority cases index the same three accounts as
	// the owner case (other copies of them), and list that one asset.
	by := map[string]any{"displayOptions": nil, "options": map[string]any{"showFungible": true}}
	add(core, "getAssetsByCreator", "getAssetsByCreator", params("get_asset_by_owner_with_show_fungible",
		merge(by, map[string]any{"ownerAddress": nil, "creatorAddress": "5XvhfmRjwXkGp3jHGmaKpqeerNYjkuZZBYLVQYdeVcRv"})), "",
		listCase("get_asset_by_owner_with_show_fungible"))
	add(core, "getAssetsByAuthority", "getAssetsByAuthority", params("get_asset_by_owner_with_show_fungible",
		merge(by, map[string]any{"ownerAddress": nil, "authorityAddress": "2RtGg6fsFiiF1EQzHqbd66AhW7R5bWeQGpTbv2UMkCdW"})), "",
		listCase("get_asset_by_owner_with_show_fungible"))
	add(core, "getTokenAccounts/mint", "getTokenAccounts", map[string]any{"mint": "wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1"}, "",
		listCase("get_token_accounts_by_mint"))
	// The one token account's owner, from the case's answer.
	add(core, "getTokenAccounts/owner", "getTokenAccounts", map[string]any{"owner": "CeviT1DTQLuicEB7yLeFkkAGmam5GnJssbGb7CML4Tgx"}, "",
		listCase("get_token_accounts_by_mint"))
	add(core, "getNftEditions", "getNftEditions", params("get_nft_editions", map[string]any{"mintAddress": nil,
		"mint": "Ey2Qb8kLctbchQsMnhZs5DjY32To2QtPuXNwWvk4NosL"}), "", listCase("get_nft_editions"))

	// searchAssets with Helius's tokenType spellings.
	add(core, "searchAssets/compressedNft", "searchAssets", params("search_asset_with_token_type_compressed",
		map[string]any{"tokenType": "compressedNft"}), "", listCase("search_asset_with_token_type_compressed"))
	add(core, "searchAssets/all", "searchAssets", params("search_asset_with_token_type_all_scenario_2",
		map[string]any{"tokenType": "all"}), "", listCase("search_asset_with_token_type_all_scenario_2"))
	add(owner, "searchAssets/fungible", "searchAssets", params("search_asset_with_token_type_fungible",
		map[string]any{"tokenType": "fungible"}), "", listCase("search_asset_with_token_type_fungible"))
	// The owner's two NFTs are regular (not compressed) ones: both
	// Helius spellings list what the reference's NonFungible does.
	for _, tt := range []string{"regularNft", "nonFungible"} {
		add(owner, "searchAssets/"+tt, "searchAssets", params("search_asset_with_token_type_non_fungible",
			map[string]any{"tokenType": tt}), "", listCase("search_asset_with_token_type_non_fungible"))
	}

	// getAssetsByOwner to the end, one asset a page, by cursor and by
	// page number: together the owner's two NFTs, each once, in the
	// order of the whole listing.
	nftOwner := "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g"
	add(owner, "getAssetsByOwner/all", "getAssetsByOwner", map[string]any{"ownerAddress": nftOwner}, "",
		func(t *testing.T, name string, summary map[string]json.RawMessage) {
			_, nfts, _ := cases["search_asset_with_token_type_non_fungible"].ExpectedList(t)
			var got listed
			if e2ekit.Decode(t, summary, name, &got) && !sameSet(got.IDs, nfts) {
				t.Errorf("%s: ids %v, want %v in any order", name, got.IDs, nfts)
			}
		})
	for _, kind := range []string{"cursor", "page"} {
		add(owner, "getAssetsByOwner/"+kind, "getAssetsByOwner", map[string]any{"ownerAddress": nftOwner, "limit": 1}, kind,
			func(t *testing.T, name string, summary map[string]json.RawMessage) {
				checkPages(t, summary, name, kind, "getAssetsByOwner/all")
			})
	}

	// Errors. dasch answers a refused or unknown request with HTTP 400 /
	// 404 and the JSON-RPC error in the body; the SDK's transport
	// (@solana/kit's HTTP transport) throws on the status without reading
	// the body, so the caller gets "HTTP error (400): Bad Request" and
	// never dasch's message. The SDK reads a JSON-RPC error only from an
	// HTTP 200 answer, as dasch gives for an unknown method.
	add(core, "error/limit", "getAssetsByOwner", map[string]any{"ownerAddress": nft.Owner, "limit": 1001}, "failure",
		wantHTTPError(400, "Bad Request"))
	add(core, "error/malformed", "getAsset", map[string]any{"id": malformed}, "failure", wantHTTPError(400, "Bad Request"))
	add(core, "error/missing", "getAsset", map[string]any{"id": missing}, "failure", wantHTTPError(404, "Not Found"))
	// Standard Solana methods on the same endpoint, answered by the node
	// dasch forwards them to.
	add(core, "solana/getSlot", "getSlot", nil, "solana", func(t *testing.T, name string, summary map[string]json.RawMessage) {
		var got string
		if e2ekit.Decode(t, summary, name, &got) && got != strconv.Itoa(nodeSlot) {
			t.Errorf("%s = %s, want the node's %d", name, got, nodeSlot)
		}
	})
	add(core, "solana/getAccountInfo", "getAccountInfo", map[string]any{"args": []any{solana.Pubkey{1}.String(), map[string]any{"encoding": "base64"}}}, "solana",
		func(t *testing.T, name string, summary map[string]json.RawMessage) {
			var got struct {
				Value struct {
					Lamports string `json:"lamports"`
				} `json:"value"`
			}
			if e2ekit.Decode(t, summary, name, &got) && got.Value.Lamports != "1234" {
				t.Errorf("%s: lamports %q, want the node's 1234", name, got.Value.Lamports)
			}
		})
	// A wrong URL reads the same as a missing asset through this SDK.
	add(core, "error/unknown-path", "getAsset", map[string]any{"id": missing}, "failure", wantHTTPError(404, "Not Found"))
	out[len(out)-1].path = "v0/das"
	// Proofs and signatures of the compressed NFT, through the SDK's own
	// methods: a proof of its tree, and the transactions of its leaf.
	cnft := asset("mint_transfer_mpl_programs").ID
	type proof struct {
		Root   string   `json:"root"`
		Proof  []string `json:"proof"`
		Leaf   string   `json:"leaf"`
		TreeID string   `json:"tree_id"`
	}
	checkProof := func(t *testing.T, name string, p proof) {
		if p.Root == "" || len(p.Proof) == 0 || p.Leaf == "" || p.TreeID == "" {
			t.Errorf("%s: %+v, want a root, a proof, the leaf and its tree", name, p)
		}
	}
	add(core, "getAssetProof", "getAssetProof", map[string]any{"id": cnft}, "raw",
		func(t *testing.T, name string, summary map[string]json.RawMessage) {
			var p proof
			if e2ekit.Decode(t, summary, name, &p) {
				checkProof(t, name, p)
			}
		})
	add(core, "getAssetProofBatch", "getAssetProofBatch", map[string]any{"ids": []string{cnft, missing}}, "raw",
		func(t *testing.T, name string, summary map[string]json.RawMessage) {
			var got map[string]*proof
			if !e2ekit.Decode(t, summary, name, &got) {
				return
			}
			if p := got[cnft]; p == nil {
				t.Errorf("%s: %v, want a proof of %s", name, got, cnft)
			} else {
				checkProof(t, name, *p)
			}
			if p, ok := got[missing]; !ok || p != nil {
				t.Errorf("%s: %s answered %v, want null", name, missing, p)
			}
		})
	add(core, "getSignaturesForAsset", "getSignaturesForAsset", map[string]any{"id": cnft, "page": 1}, "raw",
		func(t *testing.T, name string, summary map[string]json.RawMessage) {
			var got struct {
				Total int        `json:"total"`
				Items [][]string `json:"items"`
			}
			if e2ekit.Decode(t, summary, name, &got) && (got.Total == 0 || len(got.Items) != got.Total || len(got.Items[0]) != 2) {
				t.Errorf("%s: %+v, want [signature, instruction] items", name, got)
			}
		})
	return out
}

// checkPages checks the pages of a limit-1 listing by cursor or page: one
// id each, then an empty page; the cursor or page member as that mode
// answers it; together the listing of whole, each id once.
func checkPages(t *testing.T, summary map[string]json.RawMessage, name, kind, whole string) {
	t.Helper()
	var pages []listed
	var all listed
	if !e2ekit.Decode(t, summary, name, &pages) || !e2ekit.Decode(t, summary, whole, &all) {
		return
	}
	var ids []string
	for i, p := range pages {
		n := 1
		if i == len(pages)-1 {
			n = 0
		}
		want := map[string]any{"total": float64(n), "limit": float64(1)}
		switch {
		case kind == "page":
			want["page"] = float64(i + 1)
		case n == 1 && len(p.IDs) == 1:
			want["cursor"] = p.IDs[0]
		}
		if len(p.IDs) != n || !reflect.DeepEqual(p.Head, want) {
			t.Errorf("%s page %d of %d: %s %v, want %s and %d id(s)", name, i+1, len(pages), e2ekit.Show(p.Head), p.IDs, e2ekit.Show(want), n)
		}
		ids = append(ids, p.IDs...)
	}
	if !slices.Equal(ids, all.IDs) {
		t.Errorf("%s: pages list %v, the whole listing is %v", name, ids, all.IDs)
	}
}

// wantHTTPError checks that the call threw the SDK's transport error for
// an HTTP status, whose message is the status line's only.
func wantHTTPError(status int, text string) func(t *testing.T, name string, summary map[string]json.RawMessage) {
	return func(t *testing.T, name string, summary map[string]json.RawMessage) {
		var f failure
		if !e2ekit.Decode(t, summary, name, &f) {
			return
		}
		msg := "HTTP error (" + strconv.Itoa(status) + "): " + text
		if !f.Threw || f.Name != "SolanaError" || f.StatusCode != status || f.Message != msg {
			t.Errorf("%s: threw %v %s %q (status %d, value %s), want SolanaError %q", name, f.Threw, f.Name, f.Message, f.StatusCode, f.Value, msg)
		}
	}
}

// wantRPCError checks that the call threw the SDK's error for a JSON-RPC
// error answer, with message msg.
func wantRPCError(msg string) func(t *testing.T, name string, summary map[string]json.RawMessage) {
	return func(t *testing.T, name string, summary map[string]json.RawMessage) {
		var f failure
		if e2ekit.Decode(t, summary, name, &f) && (!f.Threw || f.Message != msg) {
			t.Errorf("%s: threw %v %s %q (value %s), want %q", name, f.Threw, f.Name, f.Message, f.Value, msg)
		}
	}
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// asJSON is v as encoding/json decodes its encoding into an any.
func asJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}
