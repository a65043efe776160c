package hotindex_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/metadata/metadatatest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
	"github.com/dasch-labs/dasch/conformance"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

const dasCorpus = "../testdata/das"

// corpusFiles lists every account and transaction fixture of the DAS
// corpus, updates after the accounts they update.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"accounts", "transactions", "largest_token_accounts", "synthetic_accounts"} {
		err := filepath.WalkDir(filepath.Join(dasCorpus, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// indexCorpus indexes every corpus file, one pipeline run each: the
// fixtures are not in slot order.
func indexCorpus(t *testing.T, s arrowstore.Store) {
	t.Helper()
	for _, f := range corpusFiles(t) {
		if err := (conformance.AssetIndexer{}).Index(context.Background(), s, []string{f}, nil); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

// storedIDs is every asset id with something stored.
func storedIDs(t *testing.T, s arrowstore.Store) []solana.Pubkey {
	t.Helper()
	res, err := s.Query(context.Background(), `SELECT DISTINCT asset_id FROM
		(SELECT asset_id FROM asset_accounts UNION ALL SELECT asset_id FROM bubblegum_events) ORDER BY asset_id`, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]solana.Pubkey, len(res.Rows))
	for i, r := range res.Rows {
		copy(ids[i][:], r[0].(string))
	}
	return ids
}

var optionSets = []asset.Options{{}, {ShowUnverifiedCollections: true, ShowCollectionMetadata: true,
	ShowFungible: true, ShowInscription: true, ShowZeroBalance: true}}

// rendered is one answer as compared: the asset's JSON or the error.
func rendered(t *testing.T, r asset.Result) string {
	t.Helper()
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	b, err := json.Marshal(r.Asset)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameAnswers renders ids from the store alone and through x and fails on
// any difference; it returns how many rendered an asset.
func sameAnswers(t *testing.T, s arrowstore.Store, x *hotindex.Assets, ids []solana.Pubkey) int {
	t.Helper()
	ctx := context.Background()
	ok := 0
	for _, opts := range optionSets {
		want, err := asset.Render(ids, assetrows.Loader(ctx, s, nil), opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := asset.Render(ids, assetrows.Loader(ctx, s, x), opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ids {
			w, g := rendered(t, want[i]), rendered(t, got[i])
			if w != g {
				t.Errorf("%s (options %+v):\nindex %s\nstore %s", ids[i], opts, g, w)
			}
			if want[i].Err == nil {
				ok++
			}
		}
	}
	return ok
}

func load(t *testing.T, s arrowstore.Store, budget int64) *hotindex.Assets {
	t.Helper()
	x := hotindex.NewAssets(s, budget)
	if err := x.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	return x
}

// TestAssetsMatchStore indexes the whole DAS corpus and renders every
// stored asset id through the index and through the store: the answers
// are the same, and the index answers them without the store.
func TestAssetsMatchStore(t *testing.T) {
	s := storetest.Open(t)
	indexCorpus(t, s)
	ids := storedIDs(t, s)
	if len(ids) < 50 {
		t.Fatalf("%d asset ids stored, want the corpus", len(ids))
	}
	// Token accounts of a mint not stored (or fungible) load nothing.
	stored, err := assetrows.Load(context.Background(), s, ids)
	must(t, err)
	x := load(t, s, 1<<30)
	st := x.Stats()
	if !st.Complete || st.Entries != len(stored) || st.Bytes <= 0 {
		t.Fatalf("stats %+v, want all %d states", st, len(stored))
	}
	if slot, ok := x.Slot(); !ok || slot == 0 {
		t.Fatalf("slot %d %v, want the indexed slot", slot, ok)
	}
	// Every key the rendering asks for is known: none is left to the store.
	var unknownKey solana.Pubkey
	unknownKey[0] = 0xff
	keys := append(slices.Clone(ids), unknownKey)
	if left := x.Lookup(keys, map[solana.Pubkey]*asset.State{}); len(left) != 0 {
		t.Fatalf("%d keys left to the store", len(left))
	}
	if n := sameAnswers(t, s, x, ids); n < len(ids)/2 {
		t.Errorf("only %d answers rendered an asset", n)
	}
	t.Run("evicted", func(t *testing.T) { evicted(t, s, ids, st) })
}

// evicted bounds the index to half the corpus: the keys past the budget
// are read from the store and every answer is still the same.
func evicted(t *testing.T, s arrowstore.Store, ids []solana.Pubkey, full hotindex.AssetStats) {
	x := load(t, s, full.Bytes/2)
	st := x.Stats()
	if st.Complete || st.Entries == 0 || st.Entries >= full.Entries || st.Bytes > full.Bytes/2 {
		t.Fatalf("stats %+v, want about half of %+v", st, full)
	}
	left := x.Lookup(ids, map[solana.Pubkey]*asset.State{})
	if len(left) == 0 || len(left) == len(ids) {
		t.Fatalf("%d of %d keys left to the store, want some", len(left), len(ids))
	}
	sameAnswers(t, s, x, ids)
}

func TestAssetsSyncBeforeLoad(t *testing.T) {
	s := storetest.Open(t)
	x := hotindex.NewAssets(s, 1<<20)
	if err := x.Sync(context.Background()); err == nil {
		t.Fatal("sync before load: no error")
	}
	if _, ok := x.Slot(); ok {
		t.Fatal("slot before load")
	}
	var k solana.Pubkey
	if left := x.Lookup([]solana.Pubkey{k}, map[solana.Pubkey]*asset.State{}); len(left) != 1 {
		t.Fatalf("lookup before load answered %d keys from memory", 1-len(left))
	}
}

func fixture(name string) string { return filepath.Join(dasCorpus, name) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func indexFiles(t *testing.T, s arrowstore.Store, files ...string) {
	t.Helper()
	for _, f := range files {
		must(t, (conformance.AssetIndexer{}).Index(context.Background(), s, []string{fixture(f)}, nil))
	}
}

// TestAssetsSyncNewestWins builds the index over an NFT, then indexes a
// newer and a stale update of its metadata and token account: after one
// sync the index serves the newest writes, what the store answers.
func TestAssetsSyncNewestWins(t *testing.T) {
	const (
		mint   = "accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json"
		meta   = "accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json"
		token  = "accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json"
		meta0  = "synthetic_accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.metadata_update.slot0.json"
		meta2  = "synthetic_accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.metadata_update.slot2.json"
		token0 = "synthetic_accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.token_update.slot0.json"
		token2 = "synthetic_accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.token_update.slot2.json"
	)
	ctx := context.Background()
	s := storetest.Open(t)
	indexFiles(t, s, mint, meta, token)
	id := storedIDs(t, s)[0]
	x := load(t, s, 1<<30)
	before := answer(t, s, x, id)

	indexFiles(t, s, meta2, token2)
	must(t, x.Sync(ctx))
	after := answer(t, s, x, id)
	if after == before {
		t.Fatal("the update is not served after a sync")
	}
	indexFiles(t, s, meta0, token0)
	must(t, x.Sync(ctx))
	if got := answer(t, s, x, id); got != after {
		t.Fatalf("a stale update replaced the newest:\n%s\nwant\n%s", got, after)
	}
	if slot, ok := x.Slot(); !ok || slot < 2 {
		t.Fatalf("index slot %d %v, want at least the update's slot 2", slot, ok)
	}
}

// answer renders id through the index, checks the store renders the same
// and returns it.
func answer(t *testing.T, s arrowstore.Store, x *hotindex.Assets, id solana.Pubkey) string {
	t.Helper()
	sameAnswers(t, s, x, []solana.Pubkey{id})
	got, err := asset.Render([]solana.Pubkey{id}, assetrows.Loader(context.Background(), s, x), asset.Options{})
	must(t, err)
	return rendered(t, got[0])
}

// put writes one asset_accounts row as the asset ingest does, and moves
// the checkpoint to its slot.
func put(t *testing.T, s arrowstore.Store, id solana.Pubkey, kind string, pubkey, program solana.Pubkey, data []byte, slot, amount uint64) {
	t.Helper()
	ctx := context.Background()
	must(t, s.Exec(ctx, `INSERT INTO asset_accounts (asset_id, kind, pubkey, program, data, slot, write_version, amount)
		VALUES ({a:FixedString(32)}, {k:String}, {p:FixedString(32)}, {g:FixedString(32)}, {d:String}, {s:UInt64}, 1, {n:UInt64})`,
		store.Params{"a": string(id[:]), "k": kind, "p": string(pubkey[:]), "g": string(program[:]), "d": string(data),
			"s": fmt.Sprint(slot), "n": fmt.Sprint(amount)}))
	must(t, s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', {s:UInt64})`,
		store.Params{"s": fmt.Sprint(slot)}))
}

func key(b byte) solana.Pubkey {
	var k solana.Pubkey
	k[0], k[31] = b, b
	return k
}

// TestAssetsSyncCore: a Core asset takes its authority from its
// collection, so a collection update reaches the asset after one sync; a
// burn reaches it too (rendered from its last live state).
func TestAssetsSyncCore(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	prog := core.CoreProgram()
	coll, a1, a2, owner, id := key(1), key(2), key(3), key(4), key(0x80)
	collection := func(auth solana.Pubkey) []byte {
		return coretest.EncodeCollection(&coretest.CollectionSpec{Authority: auth, Name: "C", URI: "https://example.org/c",
			NumMinted: 1, CurrentSize: 1})
	}
	put(t, s, coll, schema.AssetKindCore, coll, prog, collection(a1), 10, 0)
	put(t, s, id, schema.AssetKindCore, id, prog, coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Collection: &coll,
		Name: "A", URI: "https://example.org/a"}), 10, 0)
	x := load(t, s, 1<<30)
	if got := answer(t, s, x, id); !strings.Contains(got, a1.String()) {
		t.Fatalf("asset without its collection's authority %s: %s", a1, got)
	}

	put(t, s, coll, schema.AssetKindCore, coll, prog, collection(a2), 11, 0)
	must(t, x.Sync(ctx))
	got := answer(t, s, x, id)
	if !strings.Contains(got, a2.String()) || strings.Contains(got, a1.String()) {
		t.Fatalf("after the collection update, want authority %s: %s", a2, got)
	}

	put(t, s, id, schema.AssetKindCore, id, prog, []byte{0}, 12, 0) // burnt: one byte left
	must(t, x.Sync(ctx))
	if got := answer(t, s, x, id); !strings.Contains(got, `"burnt":true`) {
		t.Fatalf("after the burn: %s", got)
	}
	if slot, _ := x.Slot(); slot != 12 {
		t.Fatalf("index slot %d, want 12", slot)
	}
}

// TestAssetsSyncEdition: an NFT's master edition lives under its own key
// (the edition PDA); after one sync its update is the state the NFT is
// rendered with, and the rendering is the store's.
func TestAssetsSyncEdition(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	id, owner := key(0x40), key(5)
	edition := metadata.EditionPDA(id)
	mint, err := tokentest.EncodeMint(&token.Mint{Program: token.TokenProgram(), MintAuthority: &edition, Supply: 1, IsInitialized: true})
	must(t, err)
	std := metadata.NonFungible
	put(t, s, id, schema.AssetKindMint, id, token.TokenProgram(), mint, 20, 1)
	put(t, s, id, schema.AssetKindMetadata, metadata.MetadataPDA(id), metadata.TokenMetadataProgram(), metadatatest.EncodeMetadata(&metadata.Metadata{
		UpdateAuthority: owner, Mint: id, Name: "N", Symbol: "S", URI: "https://example.org/n", TokenStandard: &std}), 20, 0)
	put(t, s, id, schema.AssetKindTokenAccount, key(6), token.TokenProgram(), tokentest.EncodeTokenAccount(&token.TokenAccount{
		Program: token.TokenProgram(), Mint: id, Owner: owner, Amount: 1, State: token.StateInitialized}), 20, 1)
	zero, five := uint64(0), uint64(5)
	put(t, s, edition, schema.AssetKindEdition, edition, metadata.TokenMetadataProgram(),
		metadatatest.EncodeMasterEdition(&metadata.MasterEdition{Key: metadata.KeyMasterEditionV2, MaxSupply: &zero}), 20, 0)
	x := load(t, s, 1<<30)
	answer(t, s, x, id)
	data := metadatatest.EncodeMasterEdition(&metadata.MasterEdition{Key: metadata.KeyMasterEditionV2, Supply: 2, MaxSupply: &five})
	put(t, s, edition, schema.AssetKindEdition, edition, metadata.TokenMetadataProgram(), data, 21, 0)
	must(t, x.Sync(ctx))
	got := map[solana.Pubkey]*asset.State{}
	if left := x.Lookup([]solana.Pubkey{id, edition}, got); len(left) != 0 || got[edition] == nil {
		t.Fatalf("lookup left %d keys, edition state %v", len(left), got[edition])
	}
	if e := got[edition].Find(schema.AssetKindEdition, edition); e == nil || e.Slot != 21 || string(e.Data) != string(data) {
		t.Fatalf("edition after sync: %+v, want the slot 21 write", e)
	}
	answer(t, s, x, id)
}
