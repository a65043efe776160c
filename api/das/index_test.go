package das

import (
	"context"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/query/assetdocs"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// serveIndexed starts a second server over e's store that reads states
// from x first, and returns its URL.
func serveIndexed(t *testing.T, e *env, x *hotindex.Assets) string {
	t.Helper()
	ctx := context.Background()
	key, _, err := auth.CreateKey(ctx, e.s, "indexed")
	if err != nil {
		t.Fatal(err)
	}
	keys := auth.NewChecker(e.s)
	reg := jsonrpc.NewRegistry()
	Register(reg, Deps{Store: e.s, Slots: checkpoint.NewSlotCache(e.s, 0), Index: x})
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0"}, reg, keys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	t.Cleanup(func() {
		stop()
		<-done
	})
	return "http://" + srv.Addr() + "/?api-key=" + key
}

// TestGetAssetFromIndex serves an NFT from the asset index: the answer is
// the store path's, stamped with the slot the index reflects; an update
// indexed later is served, with its slot, only once the index has synced.
func TestGetAssetFromIndex(t *testing.T) {
	const (
		mint  = "accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json"
		meta  = "accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json"
		token = "accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json"
		meta2 = "synthetic_accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.metadata_update.slot2.json"
		req   = `{"id":"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"}`
	)
	e := newEnv(t)
	e.index(mint, meta, token)
	x := hotindex.NewAssets(e.s, 1<<30)
	if err := x.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	indexed := &env{t: t, s: e.s, url: serveIndexed(t, e, x)}
	slotOf := func(a rpcAnswer) uint64 {
		t.Helper()
		var v struct {
			Slot uint64 `json:"last_indexed_slot"`
		}
		if a.Status != 200 || json.Unmarshal(a.Result, &v) != nil {
			t.Fatalf("HTTP %d %s %+v", a.Status, a.Result, a.Error)
		}
		return v.Slot
	}
	got, want := indexed.call("getAsset", req), e.call("getAsset", req)
	if string(got.Result) != string(want.Result) {
		t.Fatalf("from the index:\n%s\nfrom the store:\n%s", got.Result, want.Result)
	}
	before, _ := x.Slot()
	if s := slotOf(got); s != before {
		t.Fatalf("last_indexed_slot %d, want the index's %d", s, before)
	}

	e.index(meta2)
	stale := indexed.call("getAsset", req)
	if string(stale.Result) != string(got.Result) || slotOf(stale) != before {
		t.Fatalf("before a sync the index answered %s", stale.Result)
	}
	if err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	fresh, want := indexed.call("getAsset", req), e.call("getAsset", req)
	after, _ := x.Slot()
	if string(fresh.Result) == string(got.Result) || slotOf(fresh) != after {
		t.Fatalf("after the sync: %s (index slot %d)", fresh.Result, after)
	}
	if slotOf(want) != after || string(fresh.Result) != string(want.Result) {
		t.Fatalf("after the sync, index and store differ:\n%s\n%s", fresh.Result, want.Result)
	}
}

// TestIndexAppliesDocuments: with the NFT's off-chain document stored,
// the index path shows the same content as the folded state.
func TestIndexAppliesDocuments(t *testing.T) {
	const (
		mint  = "accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json"
		meta  = "accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json"
		token = "accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json"
		req   = `{"id":"843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"}`
	)
	ctx := context.Background()
	e := newEnv(t)
	e.index(mint, meta, token)
	var a struct {
		Content struct {
			JSONURI  string `json:"json_uri"`
			Metadata struct {
				Description string `json:"description"`
			} `json:"metadata"`
		} `json:"content"`
	}
	if err := json.Unmarshal(e.call("getAsset", req).Result, &a); err != nil || a.Content.JSONURI == "" {
		t.Fatalf("no json_uri: %v", err)
	}
	key := assetdocs.URIKey(a.Content.JSONURI)
	doc := `{"name":"N","description":"from the document","image":"https://example.com/i.png"}`
	if err := assetstate.WriteMetadataDocs(ctx, e.s, []assetstate.MetadataDocRow{{
		Key: key, URI: a.Content.JSONURI, Doc: []byte(doc), ContentType: "application/json", Version: 2}}); err != nil {
		t.Fatal(err)
	}
	st := assetstate.NewFoldStep()
	st.Folded = e.cache.Invalidate
	if _, err := st.RefoldURIs(ctx, e.s, []solana.Pubkey{key}); err != nil {
		t.Fatal(err)
	}
	x := hotindex.NewAssets(e.s, 1<<30)
	if err := x.Load(ctx); err != nil {
		t.Fatal(err)
	}
	indexed := &env{t: t, s: e.s, url: serveIndexed(t, e, x)}
	got, want := indexed.call("getAsset", req), e.call("getAsset", req)
	if err := json.Unmarshal(want.Result, &a); err != nil || a.Content.Metadata.Description != "from the document" {
		t.Fatalf("store path without the document: %s", want.Result)
	}
	if string(got.Result) != string(want.Result) {
		t.Fatalf("from the index:\n%s\nfrom the store:\n%s", got.Result, want.Result)
	}
}
