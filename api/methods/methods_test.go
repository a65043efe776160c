package methods_test

import (
	"context"
	"slices"
	"testing"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/store"
)

// noStore is never asked: registering reads nothing.
type noStore struct{}

func (noStore) Query(context.Context, string, store.Params) (*store.Result, error) {
	panic("queried while registering")
}

func TestSets(t *testing.T) {
	s := noStore{}
	slots := checkpoint.NewSlotCache(s, 0)
	names := func(set methods.Set) []string {
		return methods.New(methods.Options{Methods: set, Store: s, Slots: slots}).Methods()
	}
	if got := names(methods.Indexer); !slices.Equal(got, []string{"getIndexerSlot"}) {
		t.Errorf("Indexer: %v", got)
	}
	das := names(methods.DAS)
	if !slices.Equal(das, []string{"getAsset", "getAssetBatch", "getAssetProof", "getAssetProofBatch", "getAssetProofs",
		"getAssetSignatures", "getAssets", "getAssetsByAuthority",
		"getAssetsByCreator", "getAssetsByGroup", "getAssetsByOwner", "getGrouping", "getNftEditions",
		"getSignaturesForAsset", "getTokenAccounts", "get_asset", "get_asset_batch", "get_asset_proof", "get_asset_proof_batch", "get_asset_proofs",
		"get_assets", "get_assets_by_creator",
		"get_assets_by_group", "get_assets_by_owner", "get_grouping", "get_nft_editions",
		"get_token_accounts", "searchAssets", "search_assets"}) {
		t.Errorf("DAS: %v", das)
	}
	photon := names(methods.Photon)
	if !slices.Contains(photon, "getCompressedAccount") || slices.Contains(photon, "getAsset") || slices.Contains(photon, "getIndexerSlot") {
		t.Errorf("Photon: %v", photon)
	}
	if got := len(names(methods.All)); got != 1+len(das)+len(photon) {
		t.Errorf("All: %d methods, want %d", got, 1+len(das)+len(photon))
	}
}

func TestNilSlots(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic without a slot cache")
		}
	}()
	methods.New(methods.Options{Methods: methods.All, Store: noStore{}})
}

func TestNames(t *testing.T) {
	das, photon := methods.Names(methods.DAS), methods.Names(methods.Photon|methods.Indexer)
	if !slices.Contains(das, "getAsset") || slices.Contains(das, "getCompressedAccount") {
		t.Errorf("DAS names: %v", das)
	}
	if !slices.Contains(photon, "getIndexerSlot") || !slices.Contains(photon, "getValidityProof") || slices.Contains(photon, "getAsset") {
		t.Errorf("Photon names: %v", photon)
	}
}
