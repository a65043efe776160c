// Package metabench measures the off-chain metadata fetcher: documents
// fetched per second against a loopback server that answers after a
// fixed latency and fails a share of requests (5xx, retried), and the
// asset ingest rate with the fetcher running beside it, as a ratio to
// the rate without it.
package metabench

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/core/coretest"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/offchain"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config sizes a run; zero members take the defaults.
type Config struct {
	// Assets is how many Core assets each ingest indexes, each naming a
	// document of its own (default 10,000).
	Assets int
	// Latency is how long the server waits before each answer (20 ms);
	// ErrorRate the share of requests it fails with a 500 (0.05).
	Latency   time.Duration
	ErrorRate float64
	// InFlight is the fetcher's concurrency (64).
	InFlight int
	Progress io.Writer
}

// Report is one run's figures.
type Report struct {
	Config
	// Fetched and FetchTime: the documents of one ingest, fetched by a
	// fetcher running alone, and how long that took.
	Fetched   uint64
	FetchTime time.Duration
	Requests  uint64 // requests the server answered, retries included
	Retried   uint64
	Failed    uint64
	// IngestOff and IngestOn are the same-sized ingests' times without
	// and with the fetcher running.
	IngestOff, IngestOn time.Duration
	// FetchedDuring is how many documents the fetcher stored while the
	// second ingest ran.
	FetchedDuring uint64
}

// DocsPerSecond is the fetch throughput.
func (r *Report) DocsPerSecond() float64 { return float64(r.Fetched) / r.FetchTime.Seconds() }

// IngestRatio is the ingest rate with the fetcher over the rate without.
func (r *Report) IngestRatio() float64 { return r.IngestOff.Seconds() / r.IngestOn.Seconds() }

// Run measures on s, a migrated store it empties first.
func Run(ctx context.Context, s arrowstore.Store, cfg Config) (*Report, error) {
	if cfg.Assets <= 0 {
		cfg.Assets = 10_000
	}
	if cfg.Latency <= 0 {
		cfg.Latency = 20 * time.Millisecond
	}
	if cfg.ErrorRate < 0 || cfg.ErrorRate >= 1 {
		return nil, fmt.Errorf("error rate %g: want [0, 1)", cfg.ErrorRate)
	}
	if cfg.ErrorRate == 0 {
		cfg.ErrorRate = 0.05
	}
	if cfg.InFlight <= 0 {
		cfg.InFlight = 64
	}
	progress := func(format string, a ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "metabench: "+format+"\n", a...)
		}
	}
	rep := &Report{Config: cfg}
	var requests atomic.Uint64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-time.After(cfg.Latency):
		case <-r.Context().Done():
			return
		}
		if rand.Float64() < cfg.ErrorRate {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		n := r.URL.Path
		fmt.Fprintf(w, `{"name":"Bench %s","symbol":"BNCH","description":"A generated asset for the fetch benchmark.",`+
			`"image":"https://example.org%s.png","external_url":"https://example.org",`+
			`"attributes":[{"trait_type":"Background","value":"Blue"},{"trait_type":"Level","value":%d}],`+
			`"properties":{"files":[{"uri":"https://example.org%s.png","type":"image/png"}],"category":"image"}}`, n, n, len(n), n)
	}))
	defer srv.Close()
	if err := schema.Empty(ctx, s); err != nil {
		return nil, err
	}

	// 1: ingest without a fetcher.
	step := assetstate.NewFoldStep()
	start := time.Now()
	if err := ingestAssets(ctx, s, step, srv.URL, 0, cfg.Assets); err != nil {
		return nil, err
	}
	rep.IngestOff = time.Since(start)
	progress("ingest without fetching: %d assets in %s", cfg.Assets, rep.IngestOff.Round(time.Millisecond))

	// 2: the fetcher alone on that ingest's queue.
	f, closeClient, err := fetcher(s, step, cfg.InFlight)
	if err != nil {
		return nil, err
	}
	start = time.Now()
	if err := f.Drain(ctx, 10*time.Second); err != nil {
		closeClient()
		return nil, err
	}
	rep.FetchTime = time.Since(start)
	closeClient()
	st := f.Stats()
	rep.Fetched, rep.Retried, rep.Failed, rep.Requests = st.Fetched.Load(), st.Retried.Load(), st.Failed.Load(), requests.Load()
	progress("fetch: %d documents in %s (%.0f/s), %d requests, %d retried, %d failed", rep.Fetched,
		rep.FetchTime.Round(time.Millisecond), rep.DocsPerSecond(), rep.Requests, rep.Retried, rep.Failed)
	if rep.Fetched+rep.Failed != uint64(cfg.Assets) {
		return nil, fmt.Errorf("fetched %d and failed %d of %d documents", rep.Fetched, rep.Failed, cfg.Assets)
	}

	// 3: the same ingest again on an empty store, the fetcher beside it.
	if err := schema.Empty(ctx, s); err != nil {
		return nil, err
	}
	step = assetstate.NewFoldStep()
	f, closeClient, err = fetcher(s, step, cfg.InFlight)
	if err != nil {
		return nil, err
	}
	defer closeClient()
	fctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- f.Run(fctx) }()
	start = time.Now()
	err = ingestAssets(ctx, s, step, srv.URL, 1, cfg.Assets)
	rep.IngestOn = time.Since(start)
	rep.FetchedDuring = f.Stats().Fetched.Load()
	stop()
	if ferr := <-done; err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	progress("ingest while fetching: %d assets in %s (ratio %.2f), %d documents fetched meanwhile", cfg.Assets,
		rep.IngestOn.Round(time.Millisecond), rep.IngestRatio(), rep.FetchedDuring)
	return rep, nil
}

func fetcher(s arrowstore.Store, step *assetstate.FoldStep, inFlight int) (*offchain.Fetcher, func(), error) {
	client := offchain.NewClient(offchain.Limits{AllowPrivate: true, PerHost: inFlight, Timeout: 10 * time.Second}, offchain.Gateways{}, nil)
	f, err := offchain.New(offchain.Config{Store: s, Client: client, Concurrency: inFlight,
		Backoff: 100 * time.Millisecond, MaxBackoff: time.Second, Poll: 50 * time.Millisecond,
		Refold: func(ctx context.Context, keys []solana.Pubkey) (int, error) { return step.RefoldURIs(ctx, s, keys) }})
	if err != nil {
		client.Close()
		return nil, nil, err
	}
	return f, client.Close, nil
}

// ingestAssets indexes n Core assets, set telling the ids and URIs of
// one run from another's, each naming base/SET-I.
func ingestAssets(ctx context.Context, s arrowstore.Store, step *assetstate.FoldStep, base string, set byte, n int) error {
	prog := core.CoreProgram()
	owner := solana.Pubkey{7, 7, 7}
	docs := make([][]byte, n)
	for i := range docs {
		var id solana.Pubkey
		id[0], id[1], id[2], id[3], id[31] = 0xB0, set, byte(i>>16), byte(i>>8), byte(i)
		data := coretest.EncodeAsset(&coretest.AssetSpec{Owner: owner, Authority: owner, Name: "Bench " + strconv.Itoa(i),
			URI: base + "/" + strconv.Itoa(int(set)) + "-" + strconv.Itoa(i)})
		docs[i] = []byte(`{"pubkey":"` + id.String() + `","owner":"` + prog.String() +
			`","lamports":3000000,"executable":false,"rent_epoch":"18446744073709551615","data":"` +
			base64.StdEncoding.EncodeToString(data) + `","slot":` + strconv.Itoa(2_000_000+i/500) +
			`,"write_version":` + strconv.Itoa(i) + `}`)
	}
	// Small batches commit (and fold, queueing URIs) as the ingest goes,
	// as a follower does, so the fetcher works while it runs.
	_, err := ingest.Run(ctx, ingest.Config{Store: s, Source: memSource(docs), BatchRows: 1000, BatchAge: 50 * time.Millisecond,
		Decoders: []decode.Decoder{assetstate.Decoder{}}, Steps: []ingest.StateStep{step}})
	return err
}

// memSource hands generated account documents to the pipeline.
type memSource [][]byte

func (m memSource) Spec() string { return fmt.Sprintf("memory:%d-assets", len(m)) }

func (m memSource) Read(ctx context.Context, emit func(source.Item) error) error {
	for i, d := range m {
		if err := emit(source.Item{Seq: uint64(i), Kind: source.KindAccount, Slot: uint64(2_000_000 + i/500),
			Key: "mem#" + strconv.Itoa(i), Raw: d}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// JSON is the run as a Bench JSON record.
func (r *Report) JSON(started time.Time, loadAvg string) *benchjson.Run {
	j := benchjson.New("metadata", started, loadAvg)
	j.ElapsedS = time.Since(started).Seconds()
	j.Params["assets"] = r.Assets
	j.Params["latency_ms"] = r.Latency.Milliseconds()
	j.Params["error_rate"] = r.ErrorRate
	j.Params["in_flight"] = r.InFlight
	j.Figure("fetch_docs_per_s", r.DocsPerSecond())
	j.Seconds("fetch_s", r.FetchTime)
	j.Seconds("ingest_off_s", r.IngestOff)
	j.Seconds("ingest_on_s", r.IngestOn)
	j.Figure("ingest_off_assets_per_s", float64(r.Assets)/r.IngestOff.Seconds())
	j.Figure("ingest_on_assets_per_s", float64(r.Assets)/r.IngestOn.Seconds())
	j.Figure("ingest_ratio", r.IngestRatio())
	j.Count("fetched", int64(r.Fetched))
	j.Count("requests", int64(r.Requests))
	j.Count("retried", int64(r.Retried))
	j.Count("failed", int64(r.Failed))
	j.Count("fetched_during_ingest", int64(r.FetchedDuring))
	return j
}

// WriteTable writes the figures for a terminal.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "metadata fetch: %d documents, %s latency, %.0f%% errors, %d in flight\n", r.Assets, r.Latency, 100*r.ErrorRate, r.InFlight)
	fmt.Fprintf(w, "  fetch throughput:          %10.0f documents/s (%d requests, %d retried, %d failed)\n",
		r.DocsPerSecond(), r.Requests, r.Retried, r.Failed)
	fmt.Fprintf(w, "  ingest without fetching:   %10.0f assets/s\n", float64(r.Assets)/r.IngestOff.Seconds())
	fmt.Fprintf(w, "  ingest while fetching:     %10.0f assets/s (%d documents fetched meanwhile)\n",
		float64(r.Assets)/r.IngestOn.Seconds(), r.FetchedDuring)
	fmt.Fprintf(w, "  ingest ratio (on / off):   %10.2f\n", r.IngestRatio())
}
