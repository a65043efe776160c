package das

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// Signatures of the fixture transactions (file names of the corpus).
const (
	sigMint       = "5coWPFty37s7haT3SVyMf6PkTaABEnhCRhfDjXeMNS58czHB5dCFPY6VrsZNwxBnqypmNic1LbLp1j5qjbdnZAc8"
	sigTransfer   = "k6jmJcurgBQ6F2bVa86Z1vGb7ievzxwRZ8GAqzFEG8HicDizxceYPUm1KTzWZ3QKtGgy1EuFWUGCRqBeKU9SAoJ"
	sigBurn       = "KHNhLijkAMeKeKm6kpbk3go6q9uMF3zmfCoYSBgERe8qJDW8q5ANpnkyBuyVkychXCeWzRY8i5EtKfeGaDDU23w"
	sigCPIMint    = "55tQCoLUtHyu4i6Dny6SMdq4dVD61nuuLxXvRLeeQqE6xdm66Ajm4so39MXcJ2VaTmCNDEFBpitzLkiFaF7rNtHi"
	sigRedeem     = "4FQRV38NSP6gDo8qDbTBfy8UDHUd6Lzu4GXbHtfvWbtCArkVcbGQwinZ7M61eCmPEF5L8xu4tLAXL7ozbh5scfRi"
	txRedeem      = "mint_redeem/" + sigRedeem + ".json"
	txDecompress  = "mint_redeem/3Ct9n9hv5PWEYbsrgDdUDqegzsnX2n5jYRxkq5YafFAueup8mTYmN4nHhNCaEwVyVAVqNssr4fizdg9wRavT7ydE.json"
	burntIDParams = `"id":"` + assetBurnt + `"`
)

type sigList struct {
	Total           int         `json:"total"`
	Limit           uint32      `json:"limit"`
	Page            *uint32     `json:"page"`
	Before          *string     `json:"before"`
	After           *string     `json:"after"`
	Items           [][2]string `json:"items"`
	LastIndexedSlot uint64      `json:"last_indexed_slot"`
}

// TestGetAssetSignatures lists the transactions of indexed cNFTs (indexed
// out of order) by change-log seq: by id or by tree and leaf index, both
// directions, every pagination, the reference's instruction names; a
// decompression, which changes no tree, is not listed.
func TestGetAssetSignatures(t *testing.T) {
	e := newEnv(t)
	e.indexCorpus(txBurn, txTransfer, txMint, txDecompress, txRedeem, txCPIMint)
	burn, transfer, mint := [2]string{sigBurn, "Burn"}, [2]string{sigTransfer, "Transfer"}, [2]string{sigMint, "MintV1"}
	tests := []struct {
		name, method, params string
		items                [][2]string
		limit                uint32
		page                 uint32
		before, after        string
	}{
		{"by id, newest first", "getAssetSignatures", `{` + burntIDParams + `}`, [][2]string{burn, transfer, mint}, 1000, 0, "", ""},
		{"alias, ascending", "getSignaturesForAsset", `{` + burntIDParams + `,"sortDirection":"asc"}`, [][2]string{mint, transfer, burn}, 1000, 0, "", ""},
		{"by tree and leaf index", "getAssetSignatures", `{"tree":"` + treeBurnt + `","leafIndex":0}`, [][2]string{burn, transfer, mint}, 1000, 0, "", ""},
		{"positional", "getAssetSignatures", `["` + assetBurnt + `", 2]`, [][2]string{burn, transfer}, 2, 0, "", ""},
		{"page 2 of 1", "getAssetSignatures", `{` + burntIDParams + `,"limit":1,"page":2}`, [][2]string{transfer}, 1, 2, "", ""},
		{"page past the end", "getAssetSignatures", `{` + burntIDParams + `,"limit":2,"page":3}`, [][2]string{}, 2, 3, "", ""},
		{"before", "getAssetSignatures", `{` + burntIDParams + `,"before":"` + sigTransfer + `"}`, [][2]string{mint}, 1000, 0, sigTransfer, ""},
		{"after", "getAssetSignatures", `{` + burntIDParams + `,"after":"` + sigMint + `"}`, [][2]string{burn, transfer}, 1000, 0, "", sigMint},
		{"after and before", "getAssetSignatures", `{` + burntIDParams + `,"after":"` + sigMint + `","before":"` + sigBurn + `"}`, [][2]string{transfer}, 1000, 0, sigBurn, sigMint},
		{"cursor, descending", "getAssetSignatures", `{` + burntIDParams + `,"cursor":"` + sigBurn + `","limit":1}`, [][2]string{transfer}, 1, 0, "", ""},
		{"cursor, ascending", "getAssetSignatures", `{` + burntIDParams + `,"cursor":"` + sigMint + `","sortDirection":"asc"}`, [][2]string{transfer, burn}, 1000, 0, "", ""},
		{"redeemed then decompressed", "getAssetSignatures", `{"id":"` + assetRedeemed + `"}`, [][2]string{{sigRedeem, "Redeem"}, {sigCPIMint, "MintToCollectionV1"}}, 1000, 0, "", ""},
		{"unknown asset", "getAssetSignatures", `{"id":"11111111111111111111111111111111"}`, [][2]string{}, 1000, 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := e.call(tc.method, tc.params)
			if a.Status != 200 || a.Error != nil {
				t.Fatalf("HTTP %d %+v", a.Status, a.Error)
			}
			var got sigList
			if err := json.Unmarshal(a.Result, &got); err != nil {
				t.Fatal(err)
			}
			if got.Total != len(tc.items) || got.Limit != tc.limit || len(got.Items) != len(tc.items) || got.LastIndexedSlot == 0 {
				t.Fatalf("got %s, want %d items, limit %d", a.Result, len(tc.items), tc.limit)
			}
			for i := range tc.items {
				if got.Items[i] != tc.items[i] {
					t.Errorf("item %d = %v, want %v", i, got.Items[i], tc.items[i])
				}
			}
			if (tc.page == 0) != (got.Page == nil) || (got.Page != nil && *got.Page != tc.page) {
				t.Errorf("page %v, want %d", got.Page, tc.page)
			}
			echo := func(name string, v *string, want string) {
				if (want == "") != (v == nil) || (v != nil && *v != want) {
					t.Errorf("%s %v, want %q", name, v, want)
				}
			}
			echo("before", got.Before, tc.before)
			echo("after", got.After, tc.after)
			if !strings.Contains(string(a.Result), `"items":[`) {
				t.Errorf("items not an array: %s", a.Result)
			}
		})
	}
}

// TestGetAssetSignaturesParams checks the client errors: 400 and -32602
// with the reference's texts where it has one.
func TestGetAssetSignaturesParams(t *testing.T) {
	e := newEnv(t)
	e.indexCorpus(txMint)
	const either = "Invalid params: Must provide either 'id' or both 'tree' and 'leafIndex'"
	tests := []struct{ params, msg string }{
		{`{}`, either},
		{`{` + burntIDParams + `,"tree":"` + treeBurnt + `","leafIndex":0}`, either},
		{`{"tree":"` + treeBurnt + `"}`, either},
		{`{"leafIndex":0}`, either},
		{`{"tree":"` + treeBurnt + `","leafIndex":-1}`, "Invalid params: `leafIndex` must not be negative"},
		{`{` + burntIDParams + `,"limit":1001}`, "Invalid params: Pagination Error. Limit should not be greater than 1000."},
		{`{` + burntIDParams + `,"page":0}`, "Invalid params: Pagination Error. No Pagination Method Selected"},
		{`{` + burntIDParams + `,"page":1,"before":"` + sigMint + `"}`, "Invalid params: Pagination Error. Only one pagination parameter supported per query."},
		{`{` + burntIDParams + `,"cursor":"` + sigMint + `","after":"` + sigMint + `"}`, "Invalid params: Pagination Error. Only one pagination parameter supported per query."},
		{`{` + burntIDParams + `,"before":"` + sigBurn + `"}`, "Invalid params: `before` is not a transaction of this asset"},
		{`{` + burntIDParams + `,"before":"` + assetBurnt + `"}`, "is not a base58 signature"},
		{`{` + burntIDParams + `,"sortDirection":"up"}`, "`sortDirection` must be \"asc\" or \"desc\""},
		{`{` + burntIDParams + `,"limit":-1}`, "limit"},
		{`{` + burntIDParams + `,"sortBy":"x"}`, "unknown field `sortBy`"},
	}
	for _, tc := range tests {
		a := e.call("getAssetSignatures", tc.params)
		if a.Status != 400 || a.Error == nil || a.Error.Code != -32602 || !strings.Contains(a.Error.Message, tc.msg) {
			t.Errorf("%s: HTTP %d %+v, want 400 -32602 containing %q", tc.params, a.Status, a.Error, tc.msg)
		}
	}
}
