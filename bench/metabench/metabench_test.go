package metabench_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/bench/metabench"
	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// BenchmarkMetadataFetch reports documents fetched per second at 64 in
// flight against a server answering after 20 ms and failing 5 %, and the
// ingest rate with the fetcher beside it over the rate without.
//
//	go test ./bench/metabench -run '^$' -bench MetadataFetch -benchtime 1x   (DASCH_BENCH_ASSETS=20000 for more)
func BenchmarkMetadataFetch(b *testing.B) {
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("DASCH_BENCH_ASSETS")); err == nil && v > 0 {
		n = v
	}
	s := storetest.Open(b)
	for i := 0; i < b.N; i++ {
		rep, err := metabench.Run(context.Background(), s, metabench.Config{Assets: n})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rep.DocsPerSecond(), "docs/s")
		b.ReportMetric(rep.IngestRatio(), "ingest_on/off")
	}
}

// TestRunSmall keeps the benchmark honest: every document is fetched or
// failed, the failures retried, and the figures are filled.
func TestRunSmall(t *testing.T) {
	s := storetest.Open(t)
	rep, err := metabench.Run(context.Background(), s, metabench.Config{Assets: 300, Latency: 2 * time.Millisecond, ErrorRate: 0.2, InFlight: 16})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fetched+rep.Failed != 300 || rep.Retried == 0 || rep.Requests < 300 || rep.DocsPerSecond() <= 0 || rep.IngestRatio() <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if j := rep.JSON(time.Now(), "0"); j.Figures["fetch_docs_per_s"] <= 0 || j.Counts["fetched"] != int64(rep.Fetched) {
		t.Fatalf("json %+v", j)
	}
}
