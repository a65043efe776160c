package bench_test

import (
	"context"
	"testing"

	"github.com/dasch-labs/dasch/bench"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// BenchmarkGRPC reports the engine's raw insert limit and the rate of
// account writes followed from a loopback Geyser stream into the store,
// on the same rows, measured in the same run.
//
//	go test ./bench -run '^$' -bench GRPC -benchtime 1x   (DASCH_BENCH_ROWS=1000000 for more)
func BenchmarkGRPC(b *testing.B) {
	s := storetest.Open(b)
	n := rows(500_000)
	for i := 0; i < b.N; i++ {
		rep, err := bench.RunGRPC(context.Background(), s, n, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rep.RawRate(), "raw_rows/s")
		b.ReportMetric(rep.StreamRate(), "stream_accounts/s")
		b.ReportMetric(rep.Ratio(), "stream/raw")
		b.Log(rep)
	}
}

// TestRunGRPCSmall keeps the benchmark code honest: both phases land
// exactly the generated rows.
func TestRunGRPCSmall(t *testing.T) {
	s := storetest.Open(t)
	rep, err := bench.RunGRPC(context.Background(), s, 5000, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 5000 || rep.Slots != 5 || rep.Raw <= 0 || rep.Stream <= 0 {
		t.Fatalf("report %+v", rep)
	}
}
