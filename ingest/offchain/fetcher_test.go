package offchain

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetdocs"
	"github.com/dasch-labs/dasch/query/assetlist"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// world is a store with the asset state step and a document server.
type world struct {
	t    *testing.T
	s    arrowstore.Store
	step *assetstate.FoldStep
	srv  *docServer
	slot uint64
}

func newWorld(t *testing.T) *world {
	return &world{t: t, s: storetest.Open(t), step: assetstate.NewFoldStep(), srv: newDocServer(t), slot: 100}
}

var owner = solana.Pubkey{9, 9, 9}

func assetID(n int) solana.Pubkey {
	var k solana.Pubkey
	k[0], k[1], k[31] = 0xA5, byte(n>>8), byte(n)
	return k
}

// put writes Core assets, id → json_uri, in one new slot and folds it.
func (w *world) put(uris map[solana.Pubkey]string) {
	w.t.Helper()
	ctx := context.Background()
	w.slot++
	for id, uri := range uris {
		w.insertCore(id, coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Authority: owner, Name: "A " + id.String()[:4], URI: uri}))
	}
	if err := w.step.Apply(ctx, w.s, w.slot, w.slot); err != nil {
		w.t.Fatal(err)
	}
}

// insertCore writes one Core account (an asset or a collection) at the
// world's slot.
func (w *world) insertCore(id solana.Pubkey, data []byte) {
	w.t.Helper()
	prog := core.CoreProgram()
	err := w.s.Exec(context.Background(), `INSERT INTO asset_accounts (asset_id, kind, pubkey, program, data, slot, write_version, amount)
		VALUES ({a:FixedString(32)}, {k:String}, {a:FixedString(32)}, {g:FixedString(32)}, {d:String}, {s:UInt64}, 1, 0)`,
		store.Params{"a": string(id[:]), "k": schema.AssetKindCore, "g": string(prog[:]),
			"d": string(data), "s": strconv.FormatUint(w.slot, 10)})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) fetcher(cfg Config) *Fetcher {
	w.t.Helper()
	cfg.Store = w.s
	if cfg.Client == nil {
		cfg.Client = testClient(Limits{Timeout: time.Second}, Gateways{})
	}
	cfg.Refold = func(ctx context.Context, keys []solana.Pubkey) (int, error) {
		return w.step.RefoldURIs(ctx, w.s, keys)
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 20 * time.Millisecond
	}
	f, err := New(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

func (w *world) drain(f *Fetcher) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.Drain(ctx, 5*time.Second); err != nil {
		w.t.Fatal(err)
	}
}

// content is the content getAsset answers for id, from the folded row.
func (w *world) content(id solana.Pubkey) *asset.Content {
	w.t.Helper()
	res, err := assetrows.FoldedAssets(context.Background(), w.s, []solana.Pubkey{id}, asset.Options{})
	if err != nil {
		w.t.Fatal(err)
	}
	a, err := res[0].Decoded()
	if err != nil || a == nil || a.Content == nil {
		w.t.Fatalf("asset %s: %v %v", id, a, err)
	}
	return a.Content
}

func description(c *asset.Content) string {
	var s string
	_ = json.Unmarshal(c.Metadata.Description, &s)
	return s
}

// state is the asset_metadata row of uri: status, reason, attempts.
func (w *world) state(uri string) (string, string, uint64) {
	w.t.Helper()
	k := assetdocs.URIKey(uri)
	res, err := w.s.Query(context.Background(), `SELECT status, reason, toUInt64(attempts) FROM asset_metadata FINAL
		WHERE hash = {h:FixedString(32)}`, store.Params{"h": string(k[:])})
	if err != nil || len(res.Rows) != 1 {
		w.t.Fatalf("state of %s: %v (%d rows)", uri, err, len(res.Rows))
	}
	r := res.Row(0)
	return r.Str(0), r.Str(1), r.U64(2)
}

func TestFetchFoldsContent(t *testing.T) {
	w := newWorld(t)
	u := func(p string) string { return w.srv.URL + p }
	ids := map[string]solana.Pubkey{}
	uris := map[solana.Pubkey]string{}
	for i, p := range []string{"/docs/token_metadata_nft.json", "/docs/core_asset.json", "/404", "/429-then-ok",
		"/500", "/docs/pnft_multi_file.json", "/huge", "/not-utf8"} {
		ids[p] = assetID(i)
		uris[assetID(i)] = u(p)
	}
	shared := assetID(100) // names the same URI as another asset
	uris[shared] = u("/docs/pnft_multi_file.json")
	w.put(uris)
	// Folded before any fetch: content from the chain alone.
	if c := w.content(ids["/docs/core_asset.json"]); len(c.Files) != 0 || c.Metadata.Description != nil {
		t.Fatalf("content before the fetch: %+v", c)
	}
	f := w.fetcher(Config{Concurrency: 4, MaxAttempts: 3, Stats: &Stats{}})
	w.drain(f)

	c := w.content(ids["/docs/core_asset.json"])
	if description(c) != "An MPL Core asset with an animation and a model." || len(c.Files) != 2 ||
		c.Files[0].Mime != "image/jpeg" || c.Category != "vr" || c.Links["external_url"] != "https://example.org/core/7" {
		t.Errorf("core asset content: %+v", c)
	}
	if c.Metadata.Name != "A "+ids["/docs/core_asset.json"].String()[:4] {
		t.Errorf("name %q: the on-chain name must stay", c.Metadata.Name)
	}
	for _, id := range []solana.Pubkey{ids["/docs/pnft_multi_file.json"], shared} {
		if c := w.content(id); description(c) != "Fock it." || len(c.Files) != 2 || !strings.Contains(string(c.Metadata.Attributes), "King") {
			t.Errorf("asset %s content: %+v", id, c)
		}
	}
	if n := w.srv.hitsOf("/docs/pnft_multi_file.json"); n != 1 {
		t.Errorf("a URI two assets name was fetched %d times", n)
	}
	if c := w.content(ids["/429-then-ok"]); description(c) != "after 429s" {
		t.Errorf("429 then ok: %+v", c)
	}
	for _, tc := range []struct {
		path, status, reason string
		attempts             uint64
		hits                 int
	}{
		{"/docs/core_asset.json", schema.MetadataOK, "", 1, 1},
		{"/429-then-ok", schema.MetadataOK, "", 3, 3},
		{"/404", schema.MetadataFailed, "http_404", 1, 1},
		{"/500", schema.MetadataFailed, "http_500", 3, 3},
		{"/huge", schema.MetadataFailed, "too_large", 1, 1},
		{"/not-utf8", schema.MetadataFailed, "not_utf8", 1, 1},
	} {
		st, reason, attempts := w.state(u(tc.path))
		if st != tc.status || reason != tc.reason || attempts != tc.attempts {
			t.Errorf("%s: %s %q after %d attempts, want %s %q after %d", tc.path, st, reason, attempts, tc.status, tc.reason, tc.attempts)
		}
		if n := w.srv.hitsOf(tc.path); n != tc.hits {
			t.Errorf("%s fetched %d times, want %d", tc.path, n, tc.hits)
		}
		if tc.status == schema.MetadataFailed {
			if c := w.content(ids[tc.path]); len(c.Files) != 0 || c.Metadata.Description != nil {
				t.Errorf("%s: a failed fetch rendered content %+v", tc.path, c)
			}
		}
	}
	st := f.Stats()
	if st.Fetched.Load() != 4 || st.Failed.Load() != 4 || st.Failures()["http_500"] != 1 || st.Retried.Load() != 4 {
		t.Errorf("stats: %s", st)
	}
	if !strings.Contains(st.String(), "metadata: 4 fetched, 4 failed (http_404 1, http_500 1, not_utf8 1, too_large 1)") {
		t.Errorf("summary line %q", st.String())
	}
	// Nothing unchanged is fetched again, by this fetcher or a new one.
	before := len(w.srv.hits)
	total := func() (n int) {
		w.srv.mu.Lock()
		defer w.srv.mu.Unlock()
		for _, v := range w.srv.hits {
			n += v
		}
		return n
	}
	was := total()
	w.drain(f)
	w.drain(w.fetcher(Config{}))
	if got := total(); got != was || len(w.srv.hits) != before {
		t.Errorf("drains after the first made %d more requests", got-was)
	}
	// Folding the asset again (a new write) keeps its content.
	w.put(map[solana.Pubkey]string{ids["/docs/core_asset.json"]: u("/docs/core_asset.json")})
	if c := w.content(ids["/docs/core_asset.json"]); description(c) == "" {
		t.Errorf("refold lost the content: %+v", c)
	}
	// searchAssets jsonUri and a listing by owner read the same content.
	jsonURI := u("/docs/token_metadata_nft.json")
	sc, err := assetlist.Search(assetlist.Query{JSONURI: &jsonURI})
	if err != nil {
		t.Fatal(err)
	}
	items, err := assetlist.Items(context.Background(), w.s, sc, assetlist.Sort{By: assetlist.SortID}, assetlist.Page{Limit: 10})
	if err != nil || len(items) != 1 || items[0].ID != ids["/docs/token_metadata_nft.json"] ||
		!strings.Contains(string(items[0].Doc), `"Degen Ape Academy is a collection`) {
		t.Errorf("search by jsonUri: %v, %d items", err, len(items))
	}
	items, err = assetlist.Items(context.Background(), w.s, assetlist.ByKey(schema.AssetPathOwner, owner, false),
		assetlist.Sort{By: assetlist.SortID}, assetlist.Page{Limit: 100})
	if err != nil || len(items) != len(uris) {
		t.Fatalf("by owner: %v, %d items", err, len(items))
	}
	described := 0
	for _, it := range items {
		if strings.Contains(string(it.Doc), `"description":`) {
			described++
		}
	}
	if described != 5 {
		t.Errorf("by owner: %d documents with a description, want 5", described)
	}
}

// TestChangedURI: an asset whose json_uri changes renders without the old
// document at once, and with the new one once it is fetched.
func TestChangedURI(t *testing.T) {
	w := newWorld(t)
	id := assetID(1)
	w.put(map[solana.Pubkey]string{id: w.srv.URL + "/docs/core_asset.json"})
	f := w.fetcher(Config{})
	w.drain(f)
	if description(w.content(id)) == "" {
		t.Fatal("no content")
	}
	w.put(map[solana.Pubkey]string{id: w.srv.URL + "/docs/cnft_collection.json"})
	if c := w.content(id); c.Metadata.Description != nil || len(c.Files) != 0 {
		t.Errorf("the old document is still rendered: %+v", c)
	}
	w.drain(f)
	if c := w.content(id); description(c) != "Collection of compressed drops." || c.JSONURI != w.srv.URL+"/docs/cnft_collection.json" {
		t.Errorf("new document: %+v", c)
	}
	// The old URI no longer finds the asset.
	if n, err := w.step.RefoldURIs(context.Background(), w.s, []solana.Pubkey{assetdocs.URIKey(w.srv.URL + "/docs/core_asset.json")}); err != nil || n != 0 {
		t.Errorf("old URI refolded %d assets (%v)", n, err)
	}
}

// TestDocumentBeforeAsset: a document stored before its asset is folded
// is rendered by the fold itself; fetch and fold commute.
func TestDocumentBeforeAsset(t *testing.T) {
	w := newWorld(t)
	first, second := assetID(1), assetID(2)
	uri := w.srv.URL + "/docs/token_metadata_nft.json"
	w.put(map[solana.Pubkey]string{first: uri})
	w.drain(w.fetcher(Config{}))
	w.put(map[solana.Pubkey]string{second: uri})
	a, b := w.content(first), w.content(second)
	if description(b) == "" || description(a) != description(b) || len(b.Files) != 1 {
		t.Errorf("asset folded after its document: %+v", b)
	}
	if n := w.srv.hitsOf("/docs/token_metadata_nft.json"); n != 1 {
		t.Errorf("fetched %d times", n)
	}
}

// TestRecoverFetched: a run that stored a document but stopped before
// folding its assets is completed by the next one, without a fetch.
func TestRecoverFetched(t *testing.T) {
	w := newWorld(t)
	id := assetID(1)
	uri := w.srv.URL + "/docs/core_asset.json"
	w.put(map[solana.Pubkey]string{id: uri})
	k := assetdocs.URIKey(uri)
	ctx := context.Background()
	if err := assetstate.WriteMetadataDocs(ctx, w.s, []assetstate.MetadataDocRow{{Key: k, URI: uri,
		Doc: []byte(`{"description":"stored before a crash"}`), Version: 10}}); err != nil {
		t.Fatal(err)
	}
	if err := assetstate.WriteMetadata(ctx, w.s, []assetstate.MetadataRow{{Key: k, URI: uri,
		Status: schema.MetadataFetched, Attempts: 1, Version: 10}}); err != nil {
		t.Fatal(err)
	}
	w.drain(w.fetcher(Config{}))
	if description(w.content(id)) != "stored before a crash" {
		t.Errorf("content %+v", w.content(id))
	}
	if st, _, _ := w.state(uri); st != schema.MetadataOK {
		t.Errorf("state %s", st)
	}
	if n := w.srv.hitsOf("/docs/core_asset.json"); n != 0 {
		t.Errorf("fetched %d times", n)
	}
}

// TestRefresh: with a refresh period, a document older than it is
// fetched again and the new version rendered.
func TestRefresh(t *testing.T) {
	w := newWorld(t)
	id := assetID(1)
	w.put(map[solana.Pubkey]string{id: w.srv.URL + "/docs/gen-r.json"})
	w.drain(w.fetcher(Config{}))
	w.srv.set("/docs/gen-r.json", `{"description":"second version"}`)
	w.drain(w.fetcher(Config{})) // no refresh: not fetched again
	if description(w.content(id)) != "generated gen-r.json" {
		t.Fatalf("content %+v", w.content(id))
	}
	time.Sleep(20 * time.Millisecond)
	w.drain(w.fetcher(Config{Refresh: 10 * time.Millisecond}))
	if description(w.content(id)) != "second version" {
		t.Errorf("after a refresh: %+v", w.content(id))
	}
	if n := w.srv.hitsOf("/docs/gen-r.json"); n != 2 {
		t.Errorf("fetched %d times, want 2", n)
	}
}

// TestRestartMidRun stops a fetcher while fetches are in flight and
// starts another: no document is lost, and none recorded by the first is
// fetched by the second.
func TestRestartMidRun(t *testing.T) {
	w := newWorld(t)
	const n = 40
	uris := map[solana.Pubkey]string{}
	for i := range n {
		uris[assetID(i)] = fmt.Sprintf("%s/docs/gen-%d.json", w.srv.URL, i)
	}
	w.put(uris)
	w.srv.delay = 40 * time.Millisecond
	f := w.fetcher(Config{Concurrency: 4, FlushRows: 3})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	var runErr error
	go func() { defer wg.Done(); runErr = f.Run(ctx) }()
	deadline := time.Now().Add(20 * time.Second)
	for f.Stats().Fetched.Load() < 8 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	if runErr != nil {
		t.Fatal(runErr)
	}
	recorded := map[string]bool{}
	for _, uri := range uris {
		if st, _, _ := w.state(uri); st == schema.MetadataOK {
			recorded[uri] = true
		} else if st != schema.MetadataQueued {
			t.Errorf("%s: %s after the stop", uri, st)
		}
	}
	if len(recorded) < 8 || len(recorded) == n {
		t.Fatalf("%d of %d recorded by the first run: want a run stopped in the middle", len(recorded), n)
	}
	hits := map[string]int{}
	for uri := range recorded {
		hits[uri] = w.srv.hitsOf(strings.TrimPrefix(uri, w.srv.URL))
	}
	w.srv.delay = 0
	w.drain(w.fetcher(Config{Concurrency: 4}))
	for id, uri := range uris {
		if st, _, _ := w.state(uri); st != schema.MetadataOK {
			t.Errorf("%s: %s", uri, st)
		}
		if recorded[uri] && w.srv.hitsOf(strings.TrimPrefix(uri, w.srv.URL)) != hits[uri] {
			t.Errorf("%s was fetched again after a restart", uri)
		}
		if c := w.content(id); !strings.HasPrefix(description(c), "generated gen-") || len(c.Files) != 1 {
			t.Errorf("%s: content %+v", uri, c)
		}
	}
}
