package assetbench_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/bench/assetbench"
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
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ingest.Accounts == 0 || rep.Ingest.Rows != int64(rep.Ingest.Accounts) || rep.RawRows != 2_000 || rep.Raw <= 0 {
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
}

// BenchmarkAssets is the full benchmark, printed as one table:
//
//	go test ./bench/assetbench -run '^$' -bench . -benchtime 1x
//
// DASCH_BENCH_ASSETS sets the size (default 50,000 here; the command
// `dasch bench --suite assets` defaults to 1,000,000).
func BenchmarkAssets(b *testing.B) {
	n, err := assetbench.AssetsFromEnv(50_000)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		s := storetest.Open(b)
		rep, err := assetbench.Run(context.Background(), s, assetbench.Config{
			Gen:      assetbench.GenConfig{Assets: n, Seed: 1},
			Progress: os.Stderr,
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
