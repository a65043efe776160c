package das

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/server"
)

// testKey is a deterministic address named by s.
func testKey(s string) solana.Pubkey { return solana.Pubkey(sha256.Sum256([]byte(s))) }

// accountFile writes an account of program as an account fixture in dir
// and returns its path.
func accountFile(t *testing.T, dir string, pubkey, program solana.Pubkey, data []byte, slot uint64) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"pubkey": pubkey.String(), "owner": program.String(), "lamports": 1000,
		"executable": false, "rent_epoch": "0", "data": base64.StdEncoding.EncodeToString(data),
		"slot": slot, "write_version": 0,
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, pubkey.String()+"-"+strconv.FormatUint(slot, 10)+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// coreFile writes a Core account (asset or collection) as an account
// fixture in dir and returns its path.
func coreFile(t *testing.T, dir string, pubkey solana.Pubkey, data []byte, slot uint64) string {
	return accountFile(t, dir, pubkey, core.CoreProgram(), data, slot)
}

// indexFiles ingests files in one pipeline run.
func (e *env) indexFiles(files ...string) {
	e.t.Helper()
	cfg := ingest.Config{Store: e.s, Source: source.NewFileList(files)}
	if err := decoders.Configure(context.Background(), e.s, &cfg, e.decoders()); err != nil {
		e.t.Fatal(err)
	}
	if _, err := ingest.Run(context.Background(), cfg); err != nil {
		e.t.Fatalf("index: %v", err)
	}
}

// listing is the part of a list answer the tests read.
type listing struct {
	Total      int     `json:"total"`
	Limit      int     `json:"limit"`
	Page       *int    `json:"page"`
	Cursor     *string `json:"cursor"`
	GrandTotal *uint64 `json:"grand_total"`
	Items      []struct {
		ID        string `json:"id"`
		Ownership struct {
			Owner string `json:"owner"`
		} `json:"ownership"`
	} `json:"items"`
}

func (l listing) ids() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.ID
	}
	return out
}

func (e *env) list(method, params string) listing {
	e.t.Helper()
	a := e.call(method, params)
	if a.Status != 200 || a.Error != nil {
		e.t.Fatalf("%s %s: HTTP %d %+v", method, params, a.Status, a.Error)
	}
	var l listing
	if err := json.Unmarshal(a.Result, &l); err != nil {
		e.t.Fatal(err)
	}
	return l
}

// listFixture indexes a Core collection of 9 assets among 30 Core assets,
// 20 owned by owner1 and 10 by owner2; the others have authority auth2.
type listFixture struct {
	dir                              string
	owner1, owner2, collection, auth solana.Pubkey
	auth2                            solana.Pubkey
	assets                           []solana.Pubkey
	specs                            []coretest.AssetSpec
}

func newListFixture(t *testing.T, e *env) *listFixture {
	f := &listFixture{dir: t.TempDir(), owner1: testKey("owner1"), owner2: testKey("owner2"),
		collection: testKey("collection"), auth: testKey("auth"), auth2: testKey("auth2")}
	files := []string{coreFile(t, f.dir, f.collection, coretest.EncodeCollection(&coretest.CollectionSpec{
		Authority: f.auth, Name: "Collection", URI: "https://example.com/c.json", NumMinted: 9, CurrentSize: 9}), 10)}
	for i := range 30 {
		id := testKey("asset" + strconv.Itoa(i))
		spec := coretest.AssetSpec{Owner: f.owner1, Authority: f.auth2, Name: "Asset " + strconv.Itoa(i), URI: "https://example.com/a.json"}
		if i >= 20 {
			spec.Owner = f.owner2
		}
		if i%3 == 0 && i < 27 {
			spec.Collection = &f.collection
		}
		f.assets, f.specs = append(f.assets, id), append(f.specs, spec)
		files = append(files, coreFile(t, f.dir, id, coretest.EncodeAsset(&spec), 10))
	}
	e.indexFiles(files...)
	return f
}

// owned lists the ids of the fixture's assets owned by owner, in id
// byte order, descending unless asc.
func (f *listFixture) owned(owner solana.Pubkey, asc bool) []string {
	var ids []solana.Pubkey
	for i, id := range f.assets {
		if f.specs[i].Owner == owner {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b solana.Pubkey) int {
		if asc {
			return bytes.Compare(a[:], b[:])
		}
		return bytes.Compare(b[:], a[:])
	})
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

// TestListPagination pages through an owner's assets in every mode: the
// default cursor mode in raw id order, descending, resumed from each
// answered cursor without repeats or gaps; page numbers; before/after
// ids; and ascending order.
func TestListPagination(t *testing.T) {
	e := newEnv(t)
	f := newListFixture(t, e)
	owner := f.owner1.String()
	want := f.owned(f.owner1, false)

	all := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`"}`)
	if !slices.Equal(all.ids(), want) || all.Total != 20 || all.Limit != 1000 || all.Cursor == nil || *all.Cursor != want[19] {
		t.Fatalf("first page: ids %v total %d limit %d cursor %v, want %v", all.ids(), all.Total, all.Limit, all.Cursor, want)
	}
	var paged []string
	cursor := ""
	for range 5 {
		p := `{"ownerAddress":"` + owner + `","limit":7`
		if cursor != "" {
			p += `,"cursor":"` + cursor + `"`
		}
		l := e.list("getAssetsByOwner", p+`}`)
		if len(l.Items) == 0 {
			break
		}
		paged = append(paged, l.ids()...)
		cursor = *l.Cursor
	}
	if !slices.Equal(paged, want) {
		t.Errorf("cursor pages %v, want %v", paged, want)
	}
	p2 := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`","limit":7,"page":2}`)
	if !slices.Equal(p2.ids(), want[7:14]) || p2.Page == nil || *p2.Page != 2 || p2.Cursor != nil {
		t.Errorf("page 2: %v page %v cursor %v, want %v", p2.ids(), p2.Page, p2.Cursor, want[7:14])
	}
	// Descending: the ids below want[5] and above want[15].
	b := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`","before":"`+want[5]+`","after":"`+want[15]+`"}`)
	if !slices.Equal(b.ids(), want[6:15]) {
		t.Errorf("between %s and %s: %v, want %v", want[15], want[5], b.ids(), want[6:15])
	}
	asc := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`","sortBy":{"sortBy":"id","sortDirection":"asc"},"limit":5}`)
	if wantAsc := f.owned(f.owner1, true)[:5]; !slices.Equal(asc.ids(), wantAsc) {
		t.Errorf("ascending: %v, want %v", asc.ids(), wantAsc)
	}
	upd := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`","sortBy":{"sortBy":"updated","sortDirection":"asc"},"page":1,"limit":50}`)
	if len(upd.Items) != 20 {
		t.Errorf("sorted by updated: %d items, want 20", len(upd.Items))
	}
}

// TestListFollowsTransfers moves an asset to another owner and out of
// the collection: the listings show it under its new keys only, and the
// grand totals count exactly.
func TestListFollowsTransfers(t *testing.T) {
	e := newEnv(t)
	f := newListFixture(t, e)
	moved := f.assets[3] // owner1, in the collection
	spec := f.specs[3]
	spec.Owner, spec.Collection = f.owner2, nil
	// Cached before the transfer.
	for range 2 {
		if a := e.call("getAsset", `{"id":"`+moved.String()+`"}`); !strings.Contains(string(a.Result), f.owner1.String()) {
			t.Fatalf("getAsset before the transfer: %s, want owner %s", a.Result, f.owner1)
		}
	}
	e.indexFiles(coreFile(t, f.dir, moved, coretest.EncodeAsset(&spec), 20))

	total := func(method, params string) (uint64, []string) {
		l := e.list(method, params[:len(params)-1]+`,"options":{"showGrandTotal":true}}`)
		if l.GrandTotal == nil {
			t.Fatalf("%s: no grand_total", method)
		}
		return *l.GrandTotal, l.ids()
	}
	// The cached document of the moved asset went with the fold.
	var got struct {
		Ownership struct {
			Owner string `json:"owner"`
		} `json:"ownership"`
	}
	for range 2 {
		a := e.call("getAsset", `{"id":"`+moved.String()+`"}`)
		if err := json.Unmarshal(a.Result, &got); err != nil || got.Ownership.Owner != f.owner2.String() {
			t.Fatalf("getAsset after the transfer: %s, want owner %s", a.Result, f.owner2)
		}
	}
	if st := e.cache.Stats(); st.Hits == 0 {
		t.Errorf("cache %+v: no hit", st)
	}
	n1, ids1 := total("getAssetsByOwner", `{"ownerAddress":"`+f.owner1.String()+`"}`)
	n2, ids2 := total("getAssetsByOwner", `{"ownerAddress":"`+f.owner2.String()+`"}`)
	if n1 != 19 || len(ids1) != 19 || slices.Contains(ids1, moved.String()) {
		t.Errorf("owner1: grand total %d, %d ids, moved asset listed: %v; want 19 without it", n1, len(ids1), slices.Contains(ids1, moved.String()))
	}
	if n2 != 11 || !slices.Contains(ids2, moved.String()) {
		t.Errorf("owner2: grand total %d, moved asset listed: %v; want 11 with it", n2, slices.Contains(ids2, moved.String()))
	}
	ng, idsg := total("getAssetsByGroup", `{"groupKey":"collection","groupValue":"`+f.collection.String()+`"}`)
	if ng != 8 || slices.Contains(idsg, moved.String()) {
		t.Errorf("collection: grand total %d, moved asset listed %v; want 8 without it", ng, slices.Contains(idsg, moved.String()))
	}
	a := e.call("getGrouping", `{"groupKey":"collection","groupValue":"`+f.collection.String()+`"}`)
	if !strings.Contains(string(a.Result), `"group_size":8`) {
		t.Errorf("getGrouping: %s, want group_size 8", a.Result)
	}
	// The moved asset now answers with auth2, the others of the
	// collection with the collection's authority.
	na, idsa := total("getAssetsByAuthority", `{"authorityAddress":"`+f.auth2.String()+`"}`)
	if na != 22 || !slices.Contains(idsa, moved.String()) {
		t.Errorf("auth2: grand total %d, moved listed %v; want 22 with it", na, slices.Contains(idsa, moved.String()))
	}
	// Folding the same state again changes nothing.
	e.indexFiles(coreFile(t, f.dir, moved, coretest.EncodeAsset(&spec), 20))
	if again, _ := total("getAssetsByOwner", `{"ownerAddress":"`+f.owner1.String()+`"}`); again != 19 {
		t.Errorf("after re-indexing: owner1 grand total %d, want 19", again)
	}
}

// TestSearchAssets checks searchAssets' conditions on the fixture: all
// (the default) and any, negate, and the reference's refusals.
func TestSearchAssets(t *testing.T) {
	e := newEnv(t)
	f := newListFixture(t, e)
	o1, o2, c := f.owner1.String(), f.owner2.String(), f.collection.String()
	tests := []struct {
		name, params string
		want         int
	}{
		{"owner", `{"ownerAddress":"` + o1 + `"}`, 20},
		{"owner and collection", `{"ownerAddress":"` + o1 + `","grouping":["collection","` + c + `"]}`, 7},
		// any: the reference's default conditions are alternatives too, and
		// every asset, the collection included, is a single-owner one.
		{"owner or collection", `{"conditionType":"any","ownerAddress":"` + o2 + `","grouping":["collection","` + c + `"]}`, 31},
		{"owner2 in collection", `{"ownerAddress":"` + o2 + `","grouping":["collection","` + c + `"]}`, 2},
		// negate: everything else, owner2's assets and the collection.
		{"not owner1", `{"negate":true,"ownerAddress":"` + o1 + `"}`, 11},
		{"name", `{"ownerAddress":"` + o1 + `","name":"Asset 1"}`, 11},
		{"interface", `{"interface":"MplCoreAsset","ownerAddress":"` + o2 + `"}`, 10},
		{"other interface", `{"interface":"ProgrammableNFT","ownerAddress":"` + o2 + `"}`, 0},
		// The collection's members and the collection itself.
		{"authority", `{"authorityAddress":"` + f.auth.String() + `"}`, 10},
		{"frozen", `{"frozen":true}`, 0},
		{"not frozen", `{"frozen":false,"ownerAddress":"` + o1 + `"}`, 20},
		{"token type all", `{"ownerAddress":"` + o1 + `","tokenType":"All"}`, 20},
		{"helius token type", `{"ownerAddress":"` + o1 + `","tokenType":"regularNft"}`, 20},
		{"compressed", `{"ownerAddress":"` + o1 + `","tokenType":"compressedNft"}`, 0},
		{"asset signer", `{"assetSigner":"` + core.AssetSignerPDA(f.assets[4]).String() + `"}`, 1},
		{"not an agent", `{"isAgent":false,"ownerAddress":"` + o2 + `"}`, 10},
		{"delegate, the Metaplex client's spelling", `{"delegateAddress":"` + o1 + `"}`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := e.list("searchAssets", tc.params)
			if l.Total != tc.want {
				t.Errorf("%d items, want %d", l.Total, tc.want)
			}
		})
	}
}

// TestListErrors: bad pagination and search params answer 400/-32602 with
// the reference's texts.
func TestListErrors(t *testing.T) {
	e := newEnv(t)
	owner := testKey("owner").String()
	tests := []struct{ method, params, msg string }{
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","limit":1001}`, errPaginationLimit},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","page":0}`, errPaginationEmpty},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","page":1,"cursor":"` + owner + `"}`, errPaginationMode},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","sortBy":{"sortBy":"created"}}`, errPaginationSorting},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","sortBy":{"sortBy":"updated"},"after":"` + owner + `"}`, errPaginationSorting},
		{"getAssetsByOwner", `{"ownerAddress":"nope"}`, "Pubkey Validation Err: nope is invalid"},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","cursor":"0OIl"}`, "Cursor Validation Err: 0OIl is invalid"},
		{"getAssetsByOwner", `{}`, "Invalid params: missing field `ownerAddress`"},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","sortBy":{"sortBy":"size"}}`, "unknown variant"},
		{"getAssetsByOwner", `{"ownerAddress":"` + owner + `","options":{"showEverything":true}}`, "showEverything"},
		{"searchAssets", `{"name":"x"}`, "Owner address must be provided in order to search assets by name"},
		{"searchAssets", `{"tokenType":"Fungible"}`, "Must provide `ownerAddress` when using `tokenType` field"},
		{"searchAssets", `{"tokenType":"All","ownerAddress":"` + owner + `","ownerType":"single"}`, "`ownerType` is not supported when using `tokenType` field"},
		{"searchAssets", `{"grouping":["collection"]}`, "grouping"},
		{"searchAssets", `{"delegate":"nope"}`, "Invalid pubkey nope"},
		{"getTokenAccounts", `{}`, "Either 'ownerAddress' or 'mintAddress' must be provided"},
		{"getNftEditions", `{"mintAddress":"` + owner + `"}`, "Master Edition not found"},
	}
	for _, tc := range tests {
		a := e.call(tc.method, tc.params)
		if a.Error == nil || !strings.Contains(a.Error.Message, tc.msg) {
			t.Errorf("%s %s: %+v, want an error with %q", tc.method, tc.params, a.Error, tc.msg)
			continue
		}
		wantStatus, wantCode := 400, -32602
		if tc.method == "getNftEditions" {
			wantStatus, wantCode = 404, codeNotFound
		}
		if a.Status != wantStatus || a.Error.Code != wantCode {
			t.Errorf("%s %s: HTTP %d code %d, want %d %d", tc.method, tc.params, a.Status, a.Error.Code, wantStatus, wantCode)
		}
	}
}

// TestOwnerFungibles: with showFungible, getAssetsByOwner also lists the
// fungible tokens the owner holds through token accounts (as Helius),
// with its balance and token account; without it, only what it owns.
func TestOwnerFungibles(t *testing.T) {
	e := newEnv(t)
	e.index(
		"accounts/search_asset_with_token_type_fungible/7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs.json",
		"accounts/search_asset_with_token_type_fungible/7BajpcYgnxmWK91RhrfsdB3Tm83PcDwPvMC8ZinvtTY6.json",
		"accounts/search_asset_with_token_type_fungible/6BRNfDfdq1nKyU1TQiCEQLWyPtD8EwUH9Kt2ahsbidUx.json",
	)
	const owner, fungible = "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g", "7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs"
	if l := e.list("getAssetsByOwner", `{"ownerAddress":"`+owner+`"}`); len(l.Items) != 0 {
		t.Errorf("without showFungible: %v, want none (the owner owns no NFT here)", l.ids())
	}
	a := e.call("getAssetsByOwner", `{"ownerAddress":"`+owner+`","options":{"showFungible":true,"showGrandTotal":true}}`)
	var got struct {
		GrandTotal uint64 `json:"grand_total"`
		Items      []struct {
			ID        string `json:"id"`
			TokenInfo struct {
				Balance *uint64 `json:"balance"`
				ATA     *string `json:"associated_token_address"`
			} `json:"token_info"`
		} `json:"items"`
	}
	if err := json.Unmarshal(a.Result, &got); err != nil || a.Error != nil {
		t.Fatalf("%s %+v %v", a.Result, a.Error, err)
	}
	if len(got.Items) != 1 || got.Items[0].ID != fungible || got.GrandTotal != 1 {
		t.Fatalf("with showFungible: %s, want %s alone", a.Result, fungible)
	}
	ti := got.Items[0].TokenInfo
	if ti.Balance == nil || *ti.Balance == 0 || ti.ATA == nil {
		t.Errorf("token_info %s, want the owner's balance and token account", a.Result)
	}
}

// TestTokenAccountsByAmount ranks a mint's holders by amount with
// sortBy amount, following the answered cursors to the end, and lists an
// owner's accounts after one of them changed owner.
func TestTokenAccountsByAmount(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	mint := testKey("mint")
	amounts := []uint64{5, 100, 0, 100, 7, 42, 1}
	var files []string
	type holding struct {
		address solana.Pubkey
		amount  uint64
	}
	var want []holding
	for i, n := range amounts {
		addr := testKey("account" + strconv.Itoa(i))
		data := tokentest.EncodeTokenAccount(&token.TokenAccount{Mint: mint, Owner: testKey("holder" + strconv.Itoa(i%3)),
			Amount: n, State: token.StateInitialized})
		files = append(files, accountFile(t, dir, addr, token.TokenProgram(), data, 10))
		if n > 0 {
			want = append(want, holding{addr, n})
		}
	}
	e.indexFiles(files...)
	slices.SortFunc(want, func(a, b holding) int {
		if a.amount != b.amount {
			return cmp.Compare(b.amount, a.amount)
		}
		return bytes.Compare(a.address[:], b.address[:])
	})
	type page struct {
		Cursor        *string `json:"cursor"`
		TokenAccounts []struct {
			Address string `json:"address"`
			Amount  uint64 `json:"amount"`
		} `json:"token_accounts"`
	}
	var got []holding
	cursor := ""
	for range 10 {
		p := `{"mintAddress":"` + mint.String() + `","sortBy":{"sortBy":"amount"},"limit":2`
		if cursor != "" {
			p += `,"cursor":"` + cursor + `"`
		}
		a := e.call("getTokenAccounts", p+`}`)
		var pg page
		if err := json.Unmarshal(a.Result, &pg); err != nil || a.Error != nil {
			t.Fatalf("%s: %s %+v", p, a.Result, a.Error)
		}
		for _, ta := range pg.TokenAccounts {
			got = append(got, holding{solana.MustParsePubkey(ta.Address), ta.Amount})
		}
		if pg.Cursor == nil {
			break
		}
		cursor = *pg.Cursor
	}
	if !slices.Equal(got, want) {
		t.Errorf("ranked: %v, want %v", got, want)
	}
	// account1 (100, holder1) moves to holder0: listed under its new owner only.
	moved := testKey("account1")
	data := tokentest.EncodeTokenAccount(&token.TokenAccount{Mint: mint, Owner: testKey("holder0"), Amount: 100, State: token.StateInitialized})
	e.indexFiles(accountFile(t, dir, moved, token.TokenProgram(), data, 20))
	count := func(owner string) int {
		a := e.call("getTokenAccounts", `{"ownerAddress":"`+testKey(owner).String()+`","options":{"showZeroBalance":true}}`)
		var pg page
		if err := json.Unmarshal(a.Result, &pg); err != nil || a.Error != nil {
			t.Fatalf("%s %+v", a.Result, a.Error)
		}
		return len(pg.TokenAccounts)
	}
	// holder0 had accounts 0, 3, 6; holder1 had 1 and 4.
	if n0, n1 := count("holder0"), count("holder1"); n0 != 4 || n1 != 1 {
		t.Errorf("after the move: holder0 %d accounts, holder1 %d; want 4 and 1", n0, n1)
	}
	for _, bad := range []string{`"sortBy":{"sortBy":"amount"}`, `"mintAddress":"` + mint.String() + `","sortBy":{"sortBy":"size"}`,
		`"mintAddress":"` + mint.String() + `","sortBy":{"sortBy":"amount"},"cursor":"abc"`} {
		if a := e.call("getTokenAccounts", `{`+bad+`}`); a.Error == nil || a.Status != 400 {
			t.Errorf("%s: HTTP %d %+v, want 400", bad, a.Status, a.Error)
		}
	}
}

// showNativeBalance: the lamports the newest indexed transaction naming
// the wallet left in it, else the followed node's, else left out.
func TestNativeBalance(t *testing.T) {
	const payer, stranger = "4xyraMeHBvudfZ8sBtvLucVYK4A4AjFBzDr4anWieB3x", "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g"
	var asked []string
	node := func(_ context.Context, w solana.Pubkey) (uint64, error) {
		asked = append(asked, w.String())
		if w.String() == stranger {
			return 0, errors.New("node down")
		}
		return 7, nil
	}
	e := newEnvWith(t, server.Config{}, func(d *Deps) { d.NodeBalance = node })
	e.index("../../chain/light/testdata/transactions/e2e_mint_and_transfer_transactions/64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4.json")
	native := func(method, params string) *uint64 {
		t.Helper()
		a := e.call(method, params)
		var got struct {
			NativeBalance *struct {
				Lamports *uint64 `json:"lamports"`
			} `json:"nativeBalance"`
		}
		if err := json.Unmarshal(a.Result, &got); err != nil || a.Error != nil {
			t.Fatalf("%s: %s %+v %v", method, a.Result, a.Error, err)
		}
		if got.NativeBalance == nil {
			return nil
		}
		if got.NativeBalance.Lamports == nil {
			t.Fatalf("%s: nativeBalance without lamports: %s", method, a.Result)
		}
		return got.NativeBalance.Lamports
	}
	for _, tc := range []struct {
		name, method, params string
		want                 *uint64
	}{
		{"indexed", "getAssetsByOwner", `{"ownerAddress":"` + payer + `","options":{"showNativeBalance":true}}`, ptr(uint64(996478820))},
		{"search by owner", "searchAssets", `{"ownerAddress":"` + payer + `","options":{"showNativeBalance":true}}`, ptr(uint64(996478820))},
		{"not asked", "getAssetsByOwner", `{"ownerAddress":"` + payer + `"}`, nil},
		{"from the node", "getAssetsByOwner", `{"ownerAddress":"11111111111111111111111111111112","displayOptions":{"showNativeBalance":true}}`, ptr(uint64(7))},
		{"node failing: left out", "getAssetsByOwner", `{"ownerAddress":"` + stranger + `","options":{"showNativeBalance":true}}`, nil},
		{"search without owner", "searchAssets", `{"burnt":false,"options":{"showNativeBalance":true}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := native(tc.method, tc.params)
			switch {
			case (got == nil) != (tc.want == nil):
				t.Errorf("nativeBalance %v, want %v", got, tc.want)
			case got != nil && *got != *tc.want:
				t.Errorf("lamports %d, want %d", *got, *tc.want)
			}
		})
	}
	if len(asked) != 2 {
		t.Errorf("node asked for %v, want the two wallets no transaction names", asked)
	}
}

func ptr[T any](v T) *T { return &v }
