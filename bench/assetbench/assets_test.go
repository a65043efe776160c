package assetbench_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/bench/assetbench"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// TestSmallRun runs the whole benchmark on a few thousand assets: the
// load, the probe and every series must complete and be filled in.
func TestSmallRun(t *testing.T) {
	_, pgErr := pgref.FindBinDir()
	if pgErr != nil && !errors.Is(pgErr, pgref.ErrNotInstalled) {
		t.Fatal(pgErr)
	}
	s := storetest.Open(t)
	tiny := assetbench.Budget{Warmup: 2, Requests: 5, Time: time.Second, MinRequests: 1}
	rep, err := assetbench.Run(context.Background(), s, assetbench.Config{
		Gen:         assetbench.GenConfig{Assets: 3_000, Seed: 3},
		RawRows:     2_000,
		BatchIDs:    20,
		Clients:     []int{4},
		Single:      tiny,
		PerKind:     tiny,
		Batch:       tiny,
		Concurrent:  assetbench.Budget{Warmup: 1, Requests: 40, Time: time.Second},
		SettleLimit: 10 * time.Second,
		Postgres:    pgErr == nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each account is an asset_accounts row, each token account two more.
	if rep.Ingest.Accounts == 0 || rep.Ingest.Rows <= int64(rep.Ingest.Accounts) || rep.Ingest.Rows > 3*int64(rep.Ingest.Accounts) ||
		rep.RawRows != 2_000 || rep.Raw <= 0 {
		t.Errorf("ingest figures %+v, raw %d rows in %s", rep.Ingest, rep.RawRows, rep.Raw)
	}
	if rep.Single.Skip != "" || len(rep.Unserved) != 0 || len(rep.UnavailableKinds) != 0 {
		t.Errorf("every kind must be generated and served: skip %q, unserved %v, unavailable %v",
			rep.Single.Skip, rep.Unserved, rep.UnavailableKinds)
	}
	if !rep.Single.HTTP.Measured() || !rep.Single.Indexed.Measured() || !rep.Single.Query.Measured() ||
		!rep.Single.Store.Measured() || !rep.Batch.HTTP.Measured() || !rep.Batch.Indexed.Measured() ||
		len(rep.Concurrent) != 2 || !rep.Concurrent[0].Indexed.Measured() || !rep.Concurrent[0].HTTP.Measured() {
		t.Errorf("series not measured: %+v %+v %+v", rep.Single, rep.Batch, rep.Concurrent)
	}
	if rep.Counts[assetbench.KindCNFT] == 0 || rep.Events < rep.Counts[assetbench.KindCNFT] {
		t.Errorf("%d compressed NFTs, %d event rows", rep.Counts[assetbench.KindCNFT], rep.Events)
	}
	if !rep.Index.Complete || rep.Index.Entries < len(rep.Counts) || rep.Index.Bytes <= 0 || rep.IndexLoad <= 0 {
		t.Errorf("asset index %+v loaded in %s", rep.Index, rep.IndexLoad)
	}
	var out strings.Builder
	rep.WriteTable(&out)
	t.Log("\n" + out.String())
	run := jsonRoundTrip(t, rep)
	want := []string{"getasset_all_kinds / http_index", "getasset_all_kinds / http_store", "getasset_all_kinds / query_layer",
		"getasset_all_kinds / store_read", "getasset_nft / http_index", "getasset_compressed_nft / http_store",
		"getassetbatch_20_ids / http_index", "getassetbatch_20_ids / store_read", "getasset_4_clients / http_index",
		"getassetbatch_20_ids_4_clients / http_store"}
	if rep.Postgres {
		want = append(want, "getasset_all_kinds / postgres", "getassetbatch_20_ids / postgres", "getasset_mpl_core / postgres")
	}
	for _, name := range want {
		if s, ok := run.Find(name); !ok || s.N == 0 || s.P50MS <= 0 || s.P99MS < s.P50MS || s.ReqPerS == nil {
			t.Errorf("series %q: %+v (found %v)", name, s, ok)
		}
	}
	if run.Suite != "assets" || run.Params["assets"] != float64(3_000) || run.Counts["assets"] != 3_000 || run.Memory["bench"].RSSBytes <= 0 {
		t.Errorf("record %+v", run)
	}
	if pgErr != nil {
		t.Skip("dasch side checked; PostgreSQL comparison skipped: ", pgErr)
	}
	if rep.PG.Rows == 0 || rep.PG.Load <= 0 || rep.PG.Index <= 0 || rep.PG.DiskBytes <= 0 {
		t.Errorf("postgres figures %+v", rep.PG)
	}
	for _, k := range rep.PerKind {
		if !k.PG.Measured() {
			t.Errorf("%s: postgres not measured", k.Label)
		}
	}
	for _, f := range []string{"getasset_http_index_over_pg_p50", "getasset_http_store_over_pg_p99", "getassetbatch_http_index_over_pg_p99"} {
		if run.Figures[f] <= 0 {
			t.Errorf("figure %s = %v", f, run.Figures[f])
		}
	}
	if run.Memory["postgres"].RSSBytes <= 0 {
		t.Errorf("postgres memory %+v", run.Memory)
	}
}

// jsonRoundTrip writes the run's record to a file and reads it back.
func jsonRoundTrip(t *testing.T, rep *assetbench.Report) *benchjson.Run {
	t.Helper()
	path := filepath.Join(t.TempDir(), "assets.json")
	if err := rep.JSON().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	run, err := benchjson.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// BenchmarkAssets is the full benchmark, printed as one table:
//
//	go test ./bench/assetbench -run '^$' -bench . -benchtime 1x
//
// DASCH_BENCH_ASSETS sets the size (default 50,000 here; the command
// `dasch bench --suite assets` defaults to 1,000,000). PostgreSQL is
// measured beside dasch when it is installed; the restart needs the
// command, which owns its store.
func BenchmarkAssets(b *testing.B) {
	n, err := assetbench.AssetsFromEnv(50_000)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		s := storetest.Open(b)
		_, pgErr := pgref.FindBinDir()
		rep, err := assetbench.Run(context.Background(), s, assetbench.Config{
			Gen:      assetbench.GenConfig{Assets: n, Seed: 1},
			Progress: os.Stderr,
			Postgres: pgErr == nil,
		})
		if err != nil {
			b.Fatal(err)
		}
		rep.WriteTable(os.Stdout)
		b.ReportMetric(rep.IngestAccountsPerSec(), "accounts/s")
		if rep.Single.HTTP.Measured() {
			b.ReportMetric(float64(rep.Single.HTTP.P99.Microseconds())/1000, "getAsset_p99_ms")
			b.ReportMetric(float64(rep.Batch.HTTP.P99.Microseconds())/1000, "batch_p99_ms")
		}
	}
}
