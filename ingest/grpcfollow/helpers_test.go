package grpcfollow_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

const corpus = "../../../shared/corpus"

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// env is a store with a key, served on loopback with every method.
type env struct {
	t     *testing.T
	s     arrowstore.Store
	url   string
	trees []byte // trees.json seeded after each reset, if set
}

func newEnv(t *testing.T) *env {
	t.Helper()
	s := storetest.Open(t)
	ctx := context.Background()
	key, _, err := auth.CreateKey(ctx, s, "grpcfollow")
	if err != nil {
		t.Fatal(err)
	}
	reg := methods.New(methods.Options{Methods: methods.All, Store: s, Slots: checkpoint.NewSlotCache(s, 0)})
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0"}, reg, auth.NewChecker(s), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx) }()
	t.Cleanup(func() { stop(); <-served })
	return &env{t: t, s: s, url: "http://" + srv.Addr() + "/?api-key=" + url.QueryEscape(key)}
}

// reset empties the store but the key.
func (e *env) reset() {
	e.t.Helper()
	ctx := context.Background()
	if err := schema.Empty(ctx, e.s, schema.TableProjects, schema.TableKeys); err != nil {
		e.t.Fatal(err)
	}
	if e.trees != nil {
		if err := compressedstate.SeedTrees(ctx, e.s, bytes.NewReader(e.trees)); err != nil {
			e.t.Fatal(err)
		}
	}
}

// run ingests src with the decoders of a deployment (assetsOnly: DAS
// only), first configuring a gRPC source with their interest.
func (e *env) run(src source.Source, assetsOnly bool, o *source.GRPCOptions) ingest.Stats {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := ingest.Config{Store: e.s, Source: src, BatchAge: 10 * time.Millisecond, PartAge: 10 * time.Millisecond}
	if err := decoders.Configure(ctx, e.s, &cfg, decoders.Options{AssetsOnly: assetsOnly}); err != nil {
		e.t.Fatal(err)
	}
	if g, ok := src.(*source.GRPC); ok {
		in := decoders.Interest(&cfg)
		o.AccountOwners, o.TxPrograms = in.AccountOwners, in.TxPrograms
		if o.Backoff == 0 {
			o.Backoff = time.Millisecond
		}
		if err := g.Configure(*o); err != nil {
			e.t.Fatal(err)
		}
		defer g.Close()
	}
	st, err := ingest.Run(ctx, cfg)
	if err != nil {
		e.t.Fatalf("ingest %s: %v", src.Spec(), err)
	}
	return st
}

// files ingests fixture files as the files: source reads a directory of
// them (in slot order, then by path).
func (e *env) files(files []string, assetsOnly bool) ingest.Stats {
	e.t.Helper()
	dir := e.t.TempDir()
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			e.t.Fatal(err)
		}
		// The folders keep the given order among files of one slot; the
		// names stay (a block file is named by its slot).
		to := filepath.Join(dir, fmt.Sprintf("%04d", i), filepath.Base(f))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
	src, err := source.NewFiles(dir)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.run(src, assetsOnly, nil)
}

// stream ingests a loopback server's stream up to slot to.
func (e *env) stream(srv *geysertest.Server, assetsOnly bool, o source.GRPCOptions) ingest.Stats {
	e.t.Helper()
	src, err := source.Parse("grpc:" + srv.URL)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.run(src, assetsOnly, &o)
}

// call sends a JSON-RPC request and returns the result, or the error
// object, as compact JSON.
func (e *env) call(method string, params json.RawMessage) string {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(e.url, "application/json", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		e.t.Fatalf("%s: %s", method, b)
	}
	if env.Error != nil {
		return "error " + string(env.Error)
	}
	return string(env.Result)
}

// clockColumns are columns whose values come from the wall clock
// (versions the state steps stamp) or from how a run was cut into steps,
// which no two runs share.
var clockColumns = map[string][]string{
	schema.TableTokenBalances: {"version"}, schema.TableMintHolders: {"version"}, schema.TableTokenLedgerApplied: {"applied"},
	// The asset fold's version is its time.
	"asset_state": {"version"}, "asset_keys": {"version"}, "asset_editions": {"version"},
	// An inner node's slot is the end of the step that derived it: where
	// a run was cut into steps, not what it read.
	"state_tree_nodes": {"slot"},
}

// tables dumps every table the pipeline writes, as FINAL reads see it
// (replacing tables merged), but skip, the step's scratch tables (Memory)
// and its record of versions; clock columns are left out.
func (e *env) tables(skip ...string) map[string]string {
	e.t.Helper()
	ctx := context.Background()
	res, err := e.s.Query(ctx, `SELECT name, engine FROM system.tables WHERE database = currentDatabase()
		AND engine NOT IN ('View', 'MaterializedView') ORDER BY name`, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range res.Rows {
		name, engine := r[0].(string), r[1].(string)
		if slices.Contains(skip, name) || engine == "Memory" || slices.Contains([]string{schema.TableMigrations, schema.TableKeys,
			schema.TableProjects, schema.TableStepVersions}, name) {
			continue
		}
		cols, err := e.s.Query(ctx, `SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {t:String}
			AND type NOT LIKE 'DateTime%' ORDER BY position`, store.Params{"t": name})
		if err != nil {
			e.t.Fatal(err)
		}
		var names []string
		for _, c := range cols.Rows {
			if !slices.Contains(clockColumns[name], c[0].(string)) {
				names = append(names, "`"+c[0].(string)+"`")
			}
		}
		final := ""
		if strings.Contains(engine, "Replacing") {
			final = " FINAL"
		}
		list := strings.Join(names, ", ")
		rows, err := e.s.Query(ctx, "SELECT "+list+" FROM `"+name+"`"+final+" ORDER BY "+list, nil)
		if err != nil {
			e.t.Fatalf("dump %s: %v", name, err)
		}
		var b strings.Builder
		for _, row := range rows.Rows {
			fmt.Fprintf(&b, "%v\n", row)
		}
		out[name] = b.String()
	}
	return out
}

// sameTables reports every table whose contents differ.
func sameTables(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if g := got[name]; g != w {
			t.Errorf("%s: table %s differs:\n got %d bytes: %.600s\nwant %d bytes: %.600s", what, name, len(g), g, len(w), w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: table %s only on one side", what, name)
		}
	}
}
