package das

import (
	"testing"

	"github.com/goccy/go-json"
)

// TestGetAssetIndexed serves an indexed NFT and a Core asset: 200, the
// asset's own id, and last_indexed_slot equal to the checkpoint (the
// highest slot indexed).
func TestGetAssetIndexed(t *testing.T) {
	e := newEnv(t)
	e.index(
		"accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json",
		"accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json",
		"accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json",
		"accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json",
	)
	type asset struct {
		ID              string  `json:"id"`
		Interface       string  `json:"interface"`
		LastIndexedSlot *uint64 `json:"last_indexed_slot"`
	}
	tests := []struct{ id, iface string }{
		{"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f", "ProgrammableNFT"},
		{"x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr", "MplCoreAsset"},
	}
	const slot = 288355443 // the Core account's slot, the highest indexed
	for _, tc := range tests {
		a := e.call("getAsset", `{"id":"`+tc.id+`","options":{"showFungible":true}}`)
		if a.Status != 200 || a.Error != nil {
			t.Fatalf("%s: HTTP %d %+v", tc.id, a.Status, a.Error)
		}
		var got asset
		if err := json.Unmarshal(a.Result, &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != tc.id || got.Interface != tc.iface || got.LastIndexedSlot == nil || *got.LastIndexedSlot != slot {
			t.Errorf("%s: got id %s interface %s last_indexed_slot %v, want %s, %d", tc.id, got.ID, got.Interface, got.LastIndexedSlot, tc.iface, slot)
		}
	}
	// Batch: request order, duplicates answered, unknown ids null.
	a := e.call("getAssetBatch", `{"ids":["x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr","11111111111111111111111111111111","843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f","x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr"]}`)
	if a.Status != 200 || a.Error != nil {
		t.Fatalf("batch: HTTP %d %+v", a.Status, a.Error)
	}
	var got []*asset
	if err := json.Unmarshal(a.Result, &got); err != nil {
		t.Fatal(err)
	}
	want := []string{"x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr", "", "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f", "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr"}
	if len(got) != len(want) {
		t.Fatalf("batch: %d results, want %d", len(got), len(want))
	}
	for i, w := range want {
		switch {
		case w == "" && got[i] != nil:
			t.Errorf("batch[%d] = %s, want null", i, got[i].ID)
		case w != "" && (got[i] == nil || got[i].ID != w || got[i].LastIndexedSlot == nil):
			t.Errorf("batch[%d] = %+v, want %s with last_indexed_slot", i, got[i], w)
		}
	}
}
