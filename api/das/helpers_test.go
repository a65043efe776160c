package das

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// env is a real server on loopback over a fresh embedded store.
type env struct {
	t   *testing.T
	s   arrowstore.Store
	url string
	// cache is the server's document cache, which every fold indexed
	// through the env invalidates, as dasch serve --ingest wires it.
	cache *assetcache.Cache
}

func newEnv(t *testing.T) *env { return newEnvWith(t, server.Config{}) }

// newEnvWith serves with cfg (its Listen is replaced by a loopback port).
func newEnvWith(t *testing.T, cfg server.Config, edit ...func(*Deps)) *env {
	t.Helper()
	s := storetest.Open(t)
	ctx := context.Background()
	key, _, err := auth.CreateKey(ctx, s, "test")
	if err != nil {
		t.Fatal(err)
	}
	reg := jsonrpc.NewRegistry()
	deps := Deps{Store: s, Slots: checkpoint.NewSlotCache(s, 0), Cache: assetcache.New(16 << 20)}
	for _, f := range edit {
		f(&deps)
	}
	Register(reg, deps)
	cfg.Listen = "127.0.0.1:0"
	srv, err := server.New(cfg, reg, auth.NewChecker(s), nil)
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
	return &env{t: t, s: s, url: "http://" + srv.Addr() + "/?api-key=" + key, cache: deps.Cache}
}

// index ingests fixture files of testdata/das, in order, one pipeline run
// each (so each is committed before the next, as updates arrive live).
func (e *env) index(files ...string) {
	e.t.Helper()
	for _, f := range files {
		cfg := ingest.Config{Store: e.s, Source: source.NewFileList([]string{filepath.Join("../../testdata/das", f)})}
		if err := decoders.Configure(context.Background(), e.s, &cfg, e.decoders()); err != nil {
			e.t.Fatal(err)
		}
		if _, err := ingest.Run(context.Background(), cfg); err != nil {
			e.t.Fatalf("index %s: %v", f, err)
		}
	}
}

// decoders are the decoder options of the env's ingests.
func (e *env) decoders() decoders.Options {
	o := decoders.Options{AssetsOnly: true}
	if e.cache != nil {
		o.Folded = e.cache.Invalidate
	}
	return o
}

// rpcAnswer is one JSON-RPC answer with its HTTP status.
type rpcAnswer struct {
	Status int
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// post sends a raw body and decodes the answer.
func (e *env) post(body string) rpcAnswer {
	e.t.Helper()
	resp, err := http.Post(e.url, "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	var a rpcAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		e.t.Fatalf("answer %s: %v", b, err)
	}
	a.Status = resp.StatusCode
	return a
}

// call sends one request with params.
func (e *env) call(method, params string) rpcAnswer {
	e.t.Helper()
	return e.post(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`)
}
