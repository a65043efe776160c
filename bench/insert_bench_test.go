package bench_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/bench"
	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func rows(def int) int {
	if v, err := strconv.Atoi(os.Getenv("DASCH_BENCH_ROWS")); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkInsert reports the engine's raw insert limit and the pipeline's
// end-to-end rate on the same rows, measured in the same run.
//
//	go test ./bench -run '^$' -bench Insert -benchtime 1x   (DASCH_BENCH_ROWS=1000000 for more)
func BenchmarkInsert(b *testing.B) {
	s := storetest.Open(b)
	n := rows(500_000)
	for i := 0; i < b.N; i++ {
		rep, err := bench.RunInsert(context.Background(), s, n, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rep.RawRate(), "raw_rows/s")
		b.ReportMetric(rep.PipelineRate(), "pipeline_rows/s")
		b.ReportMetric(rep.Ratio(), "pipeline/raw")
		b.Log(rep)
	}
}

// TestRunInsertSmall keeps the benchmark code honest in `make test`: both
// phases must land exactly the generated rows.
func TestRunInsertSmall(t *testing.T) {
	s := storetest.Open(t)
	rep, err := bench.RunInsert(context.Background(), s, 5000, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 5000 || rep.Raw <= 0 || rep.Pipeline <= 0 {
		t.Fatalf("report %+v", rep)
	}
}

func TestSyntheticAccountsDeterministic(t *testing.T) {
	a, b := bench.SyntheticAccounts(10, 7), bench.SyntheticAccounts(10, 7)
	c := bench.SyntheticAccounts(10, 8)
	for i := range a {
		if string(a[i]) != string(b[i]) {
			t.Fatal("same seed, different output")
		}
	}
	if string(a[0]) == string(c[0]) {
		t.Fatal("different seeds, same output")
	}
}
