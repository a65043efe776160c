package das

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// TestSearchKeys: searches without an owner, creator, authority or group
// read the interface and flag keys, and follow an asset frozen and
// thawed again; rows folded before those keys existed get them from the
// migration, and a later fold tombstones them from the stored columns.
func TestSearchKeys(t *testing.T) {
	e := newEnv(t)
	f := newListFixture(t, e)
	frozen := f.assets[5]
	freeze := func(on bool, slot uint64) {
		t.Helper()
		spec := f.specs[5]
		spec.Plugins.Freeze = &on
		e.indexFiles(coreFile(t, f.dir, frozen, coretest.EncodeAsset(&spec), slot))
	}
	check := func(stage string, frozenIDs []string) {
		t.Helper()
		tests := []struct {
			name, params string
			want         int
		}{
			{"interface", `{"interface":"MplCoreAsset"}`, 30},
			{"collection interface", `{"interface":"MplCoreCollection"}`, 1},
			{"interface and frozen", `{"interface":"MplCoreAsset","frozen":true}`, len(frozenIDs)},
			{"interface and not frozen", `{"interface":"MplCoreAsset","frozen":false}`, 30 - len(frozenIDs)},
			{"frozen", `{"frozen":true}`, len(frozenIDs)},
			{"frozen, other interface", `{"frozen":true,"interface":"MplCoreCollection"}`, 0},
			{"burnt", `{"burnt":true}`, 0},
			{"burnt and interface", `{"burnt":true,"interface":"MplCoreAsset"}`, 0},
			{"not burnt (no key)", `{"burnt":false}`, 31},
			{"interface, negated (no key)", `{"negate":true,"interface":"MplCoreAsset"}`, 1},
			{"interface or frozen (no key)", `{"conditionType":"any","interface":"MplCoreCollection","frozen":true}`, 31},
			{"interface, second page", `{"interface":"MplCoreAsset","limit":20,"page":2}`, 10},
		}
		for _, tc := range tests {
			l := e.list("searchAssets", tc.params)
			if l.Total != tc.want {
				t.Errorf("%s, %s: %d items, want %d", stage, tc.name, l.Total, tc.want)
			}
			if tc.name == "frozen" && !slices.Equal(l.ids(), frozenIDs) {
				t.Errorf("%s, frozen: %v, want %v", stage, l.ids(), frozenIDs)
			}
		}
		// The cursor follows the key's range in id order.
		var got []string
		cursor := ""
		for range 10 {
			p := `{"interface":"MplCoreAsset","limit":7` + cursor + `}`
			l := e.list("searchAssets", p)
			if len(l.Items) == 0 {
				break
			}
			got = append(got, l.ids()...)
			cursor = `,"cursor":"` + *l.Cursor + `"`
		}
		ids := slices.Clone(f.assets)
		slices.SortFunc(ids, func(a, b solana.Pubkey) int { return bytes.Compare(b[:], a[:]) })
		want := make([]string, len(ids))
		for i, id := range ids {
			want[i] = id.String()
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: cursor pages gave %d ids, want the 30 assets in descending id order", stage, len(got))
		}
	}
	check("indexed", nil)
	freeze(true, 20)
	check("frozen", []string{frozen.String()})
	freeze(false, 30)
	check("thawed", nil)

	// As a store folded before migration 39: no search key rows, none in
	// asset_state.keys; the migration files them from asset_state.
	freeze(true, 40)
	ctx := context.Background()
	for _, stmt := range []string{
		`ALTER TABLE asset_keys DELETE WHERE path LIKE 'interface:%' OR path IN ('burnt', 'frozen') SETTINGS mutations_sync = 2`,
		`ALTER TABLE asset_state UPDATE keys = arrayFilter(k -> NOT (substring(k, 42) LIKE 'interface:%' OR substring(k, 42) IN ('burnt', 'frozen')), keys)
			WHERE true SETTINGS mutations_sync = 2`,
	} {
		if err := e.s.Exec(ctx, stmt, nil); err != nil {
			t.Fatal(err)
		}
	}
	if l := e.list("searchAssets", `{"interface":"MplCoreAsset"}`); l.Total != 0 {
		t.Fatalf("without the search keys: %d items, want 0", l.Total)
	}
	for _, m := range schema.Migrations() {
		if m.Version != 39 {
			continue
		}
		for _, stmt := range m.Statements {
			if err := e.s.Exec(ctx, stmt, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	check("migrated", []string{frozen.String()})
	freeze(false, 50)
	check("thawed after the migration", nil)
}

// TestSearchOwnerFungibles: an owner's fungibles, held through token
// accounts, found by searchAssets with tokenType fungible and all, and a
// supply mint read by its id.
func TestSearchOwnerFungibles(t *testing.T) {
	e := newEnv(t)
	e.index(
		"accounts/search_asset_with_token_type_fungible/7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs.json",
		"accounts/search_asset_with_token_type_fungible/7BajpcYgnxmWK91RhrfsdB3Tm83PcDwPvMC8ZinvtTY6.json",
		"accounts/search_asset_with_token_type_fungible/6BRNfDfdq1nKyU1TQiCEQLWyPtD8EwUH9Kt2ahsbidUx.json",
	)
	const owner, fungible = "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g", "7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs"
	other := testKey("nobody").String()
	tests := []struct {
		name, params string
		want         []string
	}{
		{"fungible", `{"ownerAddress":"` + owner + `","tokenType":"fungible"}`, []string{fungible}},
		{"all", `{"ownerAddress":"` + owner + `","tokenType":"all"}`, []string{fungible}},
		{"fungible, another owner", `{"ownerAddress":"` + other + `","tokenType":"fungible"}`, nil},
		{"fungible, negated", `{"negate":true,"ownerAddress":"` + other + `","tokenType":"fungible"}`, []string{fungible}},
		{"supply mint", `{"supplyMint":"` + fungible + `","ownerType":"token"}`, []string{fungible}},
		{"supply mint, single owner", `{"supplyMint":"` + fungible + `"}`, nil},
		{"supply mint or owner", `{"conditionType":"any","supplyMint":"` + fungible + `","ownerAddress":"` + other + `"}`, []string{fungible}},
	}
	for _, tc := range tests {
		if got := e.list("searchAssets", tc.params).ids(); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestOwnerFungiblesPages: an owner's assets and the fungible it holds
// are one listing in every page mode and order: cursors, page numbers
// and the created sort give each asset once.
func TestOwnerFungiblesPages(t *testing.T) {
	e := newEnv(t)
	e.index(
		"accounts/search_asset_with_token_type_fungible/7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs.json",
		"accounts/search_asset_with_token_type_fungible/7BajpcYgnxmWK91RhrfsdB3Tm83PcDwPvMC8ZinvtTY6.json",
		"accounts/search_asset_with_token_type_fungible/6BRNfDfdq1nKyU1TQiCEQLWyPtD8EwUH9Kt2ahsbidUx.json",
	)
	const owner, fungible = "2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g", "7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs"
	o, err := solana.ParsePubkey(owner)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	want := []solana.Pubkey{solana.MustParsePubkey(fungible)}
	var files []string
	for i := range 5 {
		id := testKey("owned" + strconv.Itoa(i))
		want = append(want, id)
		files = append(files, coreFile(t, dir, id, coretest.EncodeAsset(&coretest.AssetSpec{Owner: o, Authority: o, Name: "A", URI: "https://example.com/a.json"}), 10))
	}
	e.indexFiles(files...)
	slices.SortFunc(want, func(a, b solana.Pubkey) int { return bytes.Compare(b[:], a[:]) })
	desc := make([]string, len(want))
	for i, id := range want {
		desc[i] = id.String()
	}
	base := `"ownerAddress":"` + owner + `","options":{"showFungible":true}`
	var byCursor []string
	cursor := ""
	for range 10 {
		l := e.list("getAssetsByOwner", `{`+base+`,"limit":2`+cursor+`}`)
		if len(l.Items) == 0 {
			break
		}
		byCursor = append(byCursor, l.ids()...)
		cursor = `,"cursor":"` + *l.Cursor + `"`
	}
	var byPage []string
	for page := 1; page <= 4; page++ {
		byPage = append(byPage, e.list("getAssetsByOwner", `{`+base+`,"limit":2,"page":`+strconv.Itoa(page)+`}`).ids()...)
	}
	created := e.list("getAssetsByOwner", `{`+base+`,"sortBy":{"sortBy":"created","sortDirection":"asc"},"page":1}`).ids()
	slices.Sort(created)
	sorted := slices.Clone(desc)
	slices.Sort(sorted)
	for _, c := range []struct {
		name     string
		got, exp []string
	}{{"cursor", byCursor, desc}, {"page", byPage, desc}, {"created, ascending", created, sorted}} {
		if !slices.Equal(c.got, c.exp) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.exp)
		}
	}
	l := e.list("searchAssets", `{"ownerAddress":"`+owner+`","tokenType":"all","options":{"showGrandTotal":true}}`)
	if l.GrandTotal == nil || *l.GrandTotal != 6 || len(l.Items) != 6 {
		t.Errorf("searchAssets tokenType all: %d items, grand total %v, want 6", len(l.Items), l.GrandTotal)
	}
}
