package offchain

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/metadata/metadatatest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// putNFT writes a Token Metadata NFT (mint, metadata, a token account
// holding it) naming uri, in collection when set, in one new slot, and
// folds it.
func (w *world) putNFT(id solana.Pubkey, uri string, collection *solana.Pubkey) {
	w.t.Helper()
	ctx := context.Background()
	w.slot++
	edition := metadata.EditionPDA(id)
	mint, err := tokentest.EncodeMint(&token.Mint{Program: token.TokenProgram(), MintAuthority: &edition, Supply: 1, IsInitialized: true})
	if err != nil {
		w.t.Fatal(err)
	}
	std := metadata.NonFungible
	md := &metadata.Metadata{UpdateAuthority: owner, Mint: id, Name: "N " + id.String()[:4], Symbol: "S", URI: uri, TokenStandard: &std}
	if collection != nil {
		md.Collection = &metadata.Collection{Verified: true, Key: *collection}
	}
	holder := id
	holder[1] ^= 0xFF
	for _, row := range []struct {
		kind         string
		pubkey, prog solana.Pubkey
		data         []byte
		amount       uint64
	}{
		{schema.AssetKindMint, id, token.TokenProgram(), mint, 1},
		{schema.AssetKindMetadata, metadata.MetadataPDA(id), metadata.TokenMetadataProgram(), metadatatest.EncodeMetadata(md), 0},
		{schema.AssetKindTokenAccount, holder, token.TokenProgram(), tokentest.EncodeTokenAccount(&token.TokenAccount{
			Program: token.TokenProgram(), Mint: id, Owner: owner, Amount: 1, State: token.StateInitialized}), 1},
	} {
		err := w.s.Exec(ctx, `INSERT INTO asset_accounts (asset_id, kind, pubkey, program, data, slot, write_version, amount)
			VALUES ({a:FixedString(32)}, {k:String}, {p:FixedString(32)}, {g:FixedString(32)}, {d:String}, {s:UInt64}, 1, {n:UInt64})`,
			store.Params{"a": string(id[:]), "k": row.kind, "p": string(row.pubkey[:]), "g": string(row.prog[:]),
				"d": string(row.data), "s": strconv.FormatUint(w.slot, 10), "n": strconv.FormatUint(row.amount, 10)})
		if err != nil {
			w.t.Fatal(err)
		}
	}
	if err := w.step.Apply(ctx, w.s, w.slot, w.slot); err != nil {
		w.t.Fatal(err)
	}
}

// collectionMetadata is the collection_metadata getAsset shows for id
// with showCollectionMetadata.
func (w *world) collectionMetadata(id solana.Pubkey) string {
	w.t.Helper()
	res, err := assetrows.FoldedAssets(context.Background(), w.s, []solana.Pubkey{id}, asset.Options{ShowCollectionMetadata: true})
	if err != nil {
		w.t.Fatal(err)
	}
	a, err := res[0].Decoded()
	if err != nil || a == nil || len(a.Grouping) != 1 {
		w.t.Fatalf("asset %s: %+v %v", id, a, err)
	}
	return string(a.Grouping[0].CollectionMetadata)
}

// TestCollectionMetadata: a member shows its collection's document once
// that is fetched, whether the member was folded before or after it.
func TestCollectionMetadata(t *testing.T) {
	w := newWorld(t)
	collection, before, after := assetID(1), assetID(2), assetID(3)
	w.putNFT(collection, w.srv.URL+"/docs/cnft_collection.json", nil)
	// The member names a document that never comes: only its
	// collection's arrival can fold it again.
	w.putNFT(before, w.srv.URL+"/404", &collection)
	if got := w.collectionMetadata(before); got != "{}" {
		t.Errorf("collection_metadata before the fetch: %s", got)
	}
	w.drain(w.fetcher(Config{}))
	const want = `"description":"Collection of compressed drops."`
	if got := w.collectionMetadata(before); !strings.Contains(got, want) || !strings.Contains(got, `"name":"Drip Haus"`) ||
		!strings.Contains(got, `"image":"ipfs://`) {
		t.Errorf("member folded before the fetch: %s", got)
	}
	w.putNFT(after, w.srv.URL+"/docs/token_metadata_nft.json", &collection)
	if got := w.collectionMetadata(after); !strings.Contains(got, want) {
		t.Errorf("member folded after the fetch: %s", got)
	}
	// Without the option the member shows none.
	res, err := assetrows.FoldedAssets(context.Background(), w.s, []solana.Pubkey{after}, asset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res[0].JSON), "collection_metadata") {
		t.Errorf("collection_metadata shown without the option: %s", res[0].JSON)
	}
}

// putCore writes one Core account (an asset or a collection) in a new
// slot and folds it.
func (w *world) putCore(id solana.Pubkey, data []byte) {
	w.t.Helper()
	w.slot++
	w.insertCore(id, data)
	if err := w.step.Apply(context.Background(), w.s, w.slot, w.slot); err != nil {
		w.t.Fatal(err)
	}
}

// TestCoreCollectionMetadata: a Core asset shows its Core collection's
// document, folded before or after the fetch, as Token Metadata members do.
func TestCoreCollectionMetadata(t *testing.T) {
	w := newWorld(t)
	collection, before, after := assetID(11), assetID(12), assetID(13)
	w.putCore(collection, coretest.EncodeCollection(&coretest.CollectionSpec{
		Authority: owner, Name: "Core C", URI: w.srv.URL + "/docs/cnft_collection.json"}))
	w.putCore(before, coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Collection: &collection, Name: "M1", URI: w.srv.URL + "/404"}))
	if got := w.collectionMetadata(before); got != "{}" {
		t.Errorf("collection_metadata before the fetch: %s", got)
	}
	w.drain(w.fetcher(Config{}))
	const want = `"name":"Drip Haus"`
	if got := w.collectionMetadata(before); !strings.Contains(got, want) {
		t.Errorf("member folded before the fetch: %s", got)
	}
	w.putCore(after, coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Collection: &collection, Name: "M2", URI: w.srv.URL + "/404"}))
	if got := w.collectionMetadata(after); !strings.Contains(got, want) {
		t.Errorf("member folded after the fetch: %s", got)
	}
}
