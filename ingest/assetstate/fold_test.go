package assetstate_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
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

const corpusDir = "../../testdata/das"

// fixtures lists every account and transaction file of the DAS corpus.
func fixtures(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"accounts", "transactions"} {
		err := filepath.WalkDir(filepath.Join(corpusDir, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" {
				out = append(out, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d fixtures", len(out))
	}
	return out
}

// index runs one pipeline per group of files, in order, with the asset
// decoder and the steps given.
func index(t *testing.T, s arrowstore.Store, groups [][]string, steps ...ingest.StateStep) {
	t.Helper()
	for _, files := range groups {
		cfg := ingest.Config{Store: s, Source: source.NewFileList(files),
			Decoders: []decode.Decoder{assetstate.Decoder{}}, Steps: steps}
		if _, err := ingest.Run(context.Background(), cfg); err != nil {
			t.Fatalf("index %s (and %d more): %v", files[0], len(files)-1, err)
		}
	}
}

// storedIDs lists every asset id with stored rows.
func storedIDs(t *testing.T, s store.Querier) []solana.Pubkey {
	t.Helper()
	res, err := s.Query(context.Background(), `SELECT DISTINCT asset_id FROM asset_accounts
		UNION DISTINCT SELECT DISTINCT asset_id FROM bubblegum_events`, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]solana.Pubkey, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		ids[i] = solana.Pubkey(r.Key(0))
	}
	slices.SortFunc(ids, func(a, b solana.Pubkey) int { return slices.Compare(a[:], b[:]) })
	return ids
}

// answer is what getAsset shows for one id: the asset's JSON or the error.
func answer(a *asset.Asset, err error) string {
	switch {
	case errors.Is(err, asset.ErrNotFound):
		return "not found"
	case errors.Is(err, asset.ErrNoSupply):
		return "no supply"
	case err != nil:
		return "error"
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// foldedAnswer is answer from a folded row viewed with opts.
func foldedAnswer(t *testing.T, f assetrows.Folded, ok bool, opts asset.Options) string {
	t.Helper()
	switch {
	case !ok:
		return "never folded"
	case f.Status == schema.AssetStatusNotFound:
		return "not found"
	case f.Status == schema.AssetStatusNoSupply:
		return "no supply"
	case f.Status == schema.AssetStatusError:
		return "error"
	}
	var a asset.Asset
	if err := json.Unmarshal(f.Doc, &a); err != nil {
		t.Fatalf("folded doc: %v", err)
	}
	return answer(asset.View(&a, opts), nil)
}

// checkFolded asserts that every stored asset's folded row, viewed with
// each display option, is what rendering the raw rows gives.
func checkFolded(t *testing.T, s store.Querier) {
	t.Helper()
	ctx := context.Background()
	ids := storedIDs(t, s)
	folded, err := assetrows.LoadFolded(ctx, s, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []asset.Options{{}, asset.Folded, {ShowUnverifiedCollections: true}, {ShowFungible: true, ShowCollectionMetadata: true}} {
		direct, err := asset.Render(ids, assetrows.Loader(ctx, s, nil), opts)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			f, ok := folded[id]
			want := answer(direct[i].Asset, direct[i].Err)
			if got := foldedAnswer(t, f, ok, opts); got != want {
				t.Errorf("%s with %+v:\n folded %s\n   want %s", id, opts, got, want)
			}
		}
	}
}

// foldedRows is asset_state as id -> (status, doc), whatever the versions.
func foldedRows(t *testing.T, s store.Querier) map[string]string {
	t.Helper()
	res, err := s.Query(context.Background(), `SELECT id, status, doc FROM asset_state FINAL`, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i := range res.Rows {
		r := res.Row(i)
		id := r.Key(0)
		out[string(id[:])] = r.Str(1) + "|" + r.Str(2)
	}
	// The serving copy holds the same.
	res, err = s.Query(context.Background(), `SELECT id, status, doc FROM asset_docs`, nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for i := range res.Rows {
		r := res.Row(i)
		id := r.Key(0)
		docs[string(id[:])] = r.Str(1) + "|" + r.Str(2)
	}
	if !maps.Equal(docs, out) {
		t.Errorf("asset_docs holds %d assets unlike asset_state's %d", len(docs), len(out))
	}
	return out
}

// each is one group per file: one pipeline run each, committed one after
// the other, in any slot order.
func each(files []string) [][]string {
	out := make([][]string, len(files))
	for i, f := range files {
		out[i] = []string{f}
	}
	return out
}

// The step folds every asset of the corpus into what rendering the raw
// rows gives, whether the files come in order or in reverse order
// (editions and collections written after what they feed).
func TestFoldMatchesRender(t *testing.T) {
	files := fixtures(t)
	s := storetest.Open(t)
	index(t, s, each(files), assetstate.NewFoldStep())
	checkFolded(t, s)
	forward := foldedRows(t, s)
	if len(forward) < 50 {
		t.Fatalf("only %d folded assets", len(forward))
	}

	s = storetest.Open(t)
	step := assetstate.NewFoldStep()
	var groups [][]string
	for i := len(files) - 1; i >= 0; i-- {
		groups = append(groups, []string{files[i]})
	}
	index(t, s, groups, step)
	checkFolded(t, s)
	if got := foldedRows(t, s); !maps.Equal(got, forward) {
		t.Errorf("reverse order folded %d assets differently from forward order's %d", len(got), len(forward))
	}
	// Applying every range again changes nothing.
	if err := step.Apply(context.Background(), s, 0, 1<<62); err != nil {
		t.Fatal(err)
	}
	if got := foldedRows(t, s); !maps.Equal(got, forward) {
		t.Error("applying the whole range again changed asset_state")
	}
}

// A store indexed before the step existed is folded whole by the step's
// first range.
func TestFoldBackfills(t *testing.T) {
	files := fixtures(t)
	files = files[len(files)-80:]
	s := storetest.Open(t)
	index(t, s, each(files[:len(files)-1]))
	if n := len(foldedRows(t, s)); n != 0 {
		t.Fatalf("%d folded rows without the step", n)
	}
	index(t, s, [][]string{files[len(files)-1:]}, assetstate.NewFoldStep())
	checkFolded(t, s)
	whole := foldedRows(t, s)

	// Folded a few assets at a time, chunk by chunk, the same.
	step := &assetstate.FoldStep{Chunk: 3}
	if err := step.Apply(context.Background(), s, 0, 1<<62); err != nil {
		t.Fatal(err)
	}
	if got := foldedRows(t, s); !maps.Equal(got, whole) {
		t.Errorf("folding 3 assets at a time gave %d assets unlike the %d of one chunk", len(got), len(whole))
	}
}

// Every listed asset_keys row carries its asset's search conditions, as
// asset_state holds them; migration 32, which gives stored rows their
// columns, leaves a folded store as it is.
func TestKeysCarryListing(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, each(fixtures(t)), assetstate.NewFoldStep())
	ctx := context.Background()
	const cols = `interface, owner, owner_type, delegate, frozen, burnt, compressed, compressible, supply,
		supply_mint, tree, royalty_model, royalty_target, royalty_bps, json_uri, name, is_agent, agent_token, asset_signer`
	snapshot := func() []string {
		res, err := s.Query(ctx, `SELECT toString(tuple(k.path, k.key, k.id, k.version, `+cols+`)) AS row,
			row = toString(tuple(k.path, k.key, k.id, k.version, s.interface, s.owner, s.owner_type, s.delegate, s.frozen, s.burnt,
				s.compressed, s.compressible, s.supply, s.supply_mint, s.tree, s.royalty_model, s.royalty_target, s.royalty_bps,
				s.json_uri, s.name, s.is_agent, s.agent_token, s.asset_signer)) AS same
			FROM (SELECT * FROM asset_keys FINAL WHERE path NOT IN ('depends', 'json_uri')) AS k
			LEFT JOIN (SELECT * FROM asset_state FINAL) AS s ON s.id = k.id ORDER BY row`, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i := range res.Rows {
			r := res.Row(i)
			row, same := r.Str(0), r.Bool(1)
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if !same {
				t.Errorf("asset_keys row unlike its asset_state row: %s", row)
			}
			out = append(out, row)
		}
		return out
	}
	before := snapshot()
	if len(before) < 50 {
		t.Fatalf("only %d listed rows", len(before))
	}
	// Rows as a store folded before migration 32 holds them: the same
	// keys and versions, the condition columns at their defaults.
	if err := s.Exec(ctx, `INSERT INTO asset_keys (path, key, id, verified, slot, created_slot, version, is_deleted, doc)
		SELECT path, key, id, verified, slot, created_slot, version, is_deleted, doc FROM asset_keys FINAL`, nil); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, `SELECT count() FROM asset_keys FINAL WHERE path NOT IN ('depends', 'json_uri') AND interface = ''`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Row(0); r.U64(0) != uint64(len(before)) {
		t.Fatalf("%d rows blanked, want %d", r.U64(0), len(before))
	}
	for _, m := range schema.Migrations() {
		if m.Name != "listing_keys" {
			continue
		}
		for _, st := range m.Statements {
			if err := s.Exec(ctx, st, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if after := snapshot(); !slices.Equal(after, before) {
		t.Errorf("migration 32 changed asset_keys: %d rows, %d before", len(after), len(before))
	}
}
