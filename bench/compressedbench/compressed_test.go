package compressedbench_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/compressedbench"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/chdb"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// TestSmallRun runs the whole benchmark on 20k accounts: every path must
// return the same pages (dasch over HTTP, dasch's engine and, when it is
// installed, PostgreSQL) and every figure must be filled in.
func TestSmallRun(t *testing.T) {
	_, pgErr := pgref.FindBinDir()
	if pgErr != nil && !errors.Is(pgErr, pgref.ErrNotInstalled) {
		t.Fatal(pgErr)
	}
	s := storetest.Open(t)
	var profile bytes.Buffer
	rep, err := compressedbench.Run(context.Background(), s, compressedbench.Config{
		IngestProfile: &profile,
		Gen:           compressedbench.GenConfig{Accounts: 20_000, Seed: 3},
		// Not a multiple of the accounts per slot: chunks split slots.
		ChunkAccounts: 3_900,
		// Six chunks in three sets of parts.
		PartChunks: 2,
		// Three chunks of 1,300 (a third of ChunkAccounts), checked by Run.
		Transfers:   3_000,
		LiveSlots:   3,
		Postgres:    pgErr == nil,
		Depths:      []int{0, 1_000, 1_000_000},
		Clients:     8,
		Pages:       compressedbench.Budget{Warmup: 1, Requests: 5, Time: time.Second, MinRequests: 1},
		Concurrent:  compressedbench.Budget{Warmup: 1, Requests: 200, Time: 2 * time.Second},
		NarrowRows:  200_000,
		SettleLimit: 30 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Mismatches {
		t.Error(m)
	}
	if len(rep.Holders) != 3 || rep.Holders[2].Skip == "" {
		t.Fatalf("holders rows %+v: want depth 1,000,000 skipped", rep.Holders)
	}
	for _, r := range []compressedbench.PageRow{rep.Holders[0], rep.Holders[1], rep.Balances, rep.TokensFew, rep.TokensWhale} {
		if !r.Verified || !r.HTTP.Measured() || !r.Query.Measured() {
			t.Errorf("%s: verified %v, http %+v, query layer %+v", r.Label, r.Verified, r.HTTP, r.Query)
		}
		if rep.Postgres && !r.PG.Measured() {
			t.Errorf("%s: postgres not measured", r.Label)
		}
	}
	if !rep.HoldersConc.HTTP.Measured() || !rep.BalancesConc.HTTP.Measured() {
		t.Error("concurrent runs not measured")
	}
	if d := rep.Dasch; d.Chunks != 6 || d.Steps < 1 || d.Steps > d.PartSets+1 || d.StepTail <= 0 || d.StepTail >= d.Load {
		t.Errorf("%d state steps over %d chunks, %v of %v after the last insert", d.Steps, d.Chunks, d.StepTail, d.Load)
	}
	if d := rep.Dasch; d.PartSets != 3 {
		t.Errorf("%d sets of parts over %d chunks, want 3", d.PartSets, d.Chunks)
	}
	// pprof writes a gzipped protobuf.
	if b := profile.Bytes(); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("ingest profile: %d bytes, not gzipped", len(b))
	}
	if rep.Dasch.Accounts != 20_000 || rep.Dasch.Load <= 0 || rep.NarrowRowsPerSec <= 0 {
		t.Errorf("ingest figures %+v", rep.Dasch)
	}
	// The process's CPU over the load: some, and no more than every CPU
	// for the whole time (with a little slack for rusage's accounting).
	for _, f := range []struct {
		what string
		fig  compressedbench.IngestFigures
	}{{"ingest", rep.Dasch}, {"same rows", rep.SameRows}} {
		if d := f.fig; d.CPU <= 0 || d.CPU.Seconds() > 1.05*d.Load.Seconds()*float64(rep.CPUs) {
			t.Errorf("%s CPU %v over %v on %d CPUs", f.what, d.CPU, d.Load, rep.CPUs)
		}
		// Its kernel part is part of it; writing parts faults pages in.
		if d := f.fig; d.SystemCPU < 0 || d.SystemCPU > d.CPU || d.Faults <= 0 {
			t.Errorf("%s: kernel CPU %v of %v, %d page faults", f.what, d.SystemCPU, d.CPU, d.Faults)
		}
		// Every part is sorted by its table's key as it is written. The
		// counter is wall time summed over threads: in a run this small
		// the threads barely wait for a core, so the phase's sorting stays
		// under the process's CPU over it.
		if e := f.fig.Engine; e.SortBlocks <= 0 || e.SortBlocks.Seconds() > f.fig.CPU.Seconds() || e.Merges < 0 {
			t.Errorf("%s engine work %+v with CPU %v", f.what, e, f.fig.CPU)
		}
	}
	if tr := rep.Transfers; tr.Transfers != 3_000 || tr.Chunks != 3 || tr.Steps < 1 || tr.SupplyAfter == 0 || tr.SupplyAfter != tr.SupplyBefore {
		t.Errorf("transfer figures: %d transfers, %d steps over %d chunks, supply %d -> %d",
			tr.Transfers, tr.Steps, tr.Chunks, tr.SupplyBefore, tr.SupplyAfter)
	}
	// Three series of three live slots, each after a warmup slot.
	if tr := rep.Transfers; len(tr.Live) != 3 || tr.LiveTransfers != 1_200 {
		t.Errorf("live slots: %d series, %d transfers", len(tr.Live), tr.LiveTransfers)
	} else {
		for _, l := range tr.Live {
			if l.N != 3 || l.Warmup <= 0 || l.Phases["step: deltas"] <= 0 {
				t.Errorf("live series %s: %d slots, warmup %v, phases %v", l.Name, l.N, l.Warmup, l.Phases)
			}
		}
	}
	// The report names the allocator options the engine ran with: the
	// store's unless the environment gave its own.
	if want := strconv.Quote(chdb.DefaultAllocator); os.Getenv("JE_MALLOC_CONF") == "" && rep.Allocator != want {
		t.Errorf("allocator options %s, want %s", rep.Allocator, want)
	}
	var out strings.Builder
	rep.WriteTable(&out)
	t.Log("\n" + out.String())
	run := jsonRoundTrip(t, rep)
	want := []string{"holders_depth_0 / http", "holders_depth_0 / query_layer", "holders_depth_1000 / http",
		"balances_by_owner / http", "token_accounts_by_owner_few / http", "token_accounts_by_owner_whale / query_layer",
		"holders_8_clients / http", "balances_8_clients / http"}
	if rep.Postgres {
		want = append(want, "holders_depth_0 / postgres", "holders_depth_1000 / postgres_row_value", "balances_by_owner / postgres",
			"token_accounts_by_owner_few / postgres_token_accounts_alone", "balances_8_clients / postgres")
	}
	for _, name := range want {
		if s, ok := run.Find(name); !ok || s.N == 0 || s.P50MS <= 0 || s.P99MS < s.P50MS || s.ReqPerS == nil {
			t.Errorf("series %q: %+v (found %v)", name, s, ok)
		}
	}
	if _, ok := run.Find("holders_depth_1000000 / http"); ok {
		t.Error("a skipped depth has a series")
	}
	if run.Suite != "compressed" || run.Counts["accounts"] != 20_000 || run.Figures["ingest_accounts_per_s"] <= 0 || run.Memory["bench"].RSSBytes <= 0 {
		t.Errorf("record %+v", run)
	}
	if rep.Postgres && (run.Memory["postgres"].RSSBytes <= 0 || run.Figures["ingest_dasch_over_pg"] <= 0) {
		t.Errorf("postgres in the record: memory %+v, figures %v", run.Memory, run.Figures)
	}
	if pgErr != nil {
		t.Skip("dasch side checked; PostgreSQL comparison skipped: ", pgErr)
	}
	if rep.PG.Accounts != 20_000 || rep.PG.Index <= 0 || rep.PG.AccountsTable <= 0 || rep.PG.AccountsTable >= rep.PG.Load+rep.PG.Index {
		t.Errorf("postgres figures %+v", rep.PG)
	}
	// Photon's transaction tables: a row per transaction (two accounts
	// each) and one per account, their keys and references built.
	if rep.PG.TxRows != 30_000 || rep.PG.TxTables <= 0 {
		t.Errorf("postgres transaction tables: %d rows in %v", rep.PG.TxRows, rep.PG.TxTables)
	}
	for _, r := range []compressedbench.PageRow{rep.TokensFew, rep.TokensWhale} {
		if !r.PGLean.Measured() {
			t.Errorf("%s: postgres token_accounts alone not measured", r.Label)
		}
	}
	if rep.Transfers.PG <= 0 {
		t.Error("postgres transfers not measured")
	}
}

// jsonRoundTrip writes the run's record to a file and reads it back.
func jsonRoundTrip(t *testing.T, rep *compressedbench.Report) *benchjson.Run {
	t.Helper()
	path := filepath.Join(t.TempDir(), "compressed.json")
	if err := rep.JSON().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	run, err := benchjson.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// BenchmarkCompressed is the full comparison, printed as one table:
//
//	go test ./bench/compressedbench -run '^$' -bench . -benchtime 1x
//
// DASCH_BENCH_ACCOUNTS scales it (default 20,000,000); DASCH_BENCH_NO_PG=1
// runs the dasch side alone.
func BenchmarkCompressed(b *testing.B) {
	n, err := compressedbench.AccountsFromEnv(compressedbench.DefaultAccounts)
	if err != nil {
		b.Fatal(err)
	}
	withPG := os.Getenv("DASCH_BENCH_NO_PG") == ""
	if withPG {
		if _, err := pgref.FindBinDir(); err != nil {
			b.Fatalf("%v (or set DASCH_BENCH_NO_PG=1 to measure dasch alone)", err)
		}
	}
	for i := 0; i < b.N; i++ {
		s := storetest.Open(b)
		rep, err := compressedbench.Run(context.Background(), s, compressedbench.Config{
			Gen:      compressedbench.GenConfig{Accounts: n, Seed: 1},
			Postgres: withPG,
			Progress: os.Stderr,
		})
		if err != nil {
			b.Fatal(err)
		}
		rep.WriteTable(os.Stdout)
		b.ReportMetric(rep.Dasch.AccountsPerSec(), "accounts/s")
		if withPG {
			b.ReportMetric(rep.Dasch.AccountsPerSec()/rep.PG.AccountsPerSec(), "ingest_vs_pg")
		}
		for _, h := range rep.Holders {
			if h.HTTP.Measured() {
				b.ReportMetric(float64(h.HTTP.P99.Microseconds())/1000, "holders_p99_ms")
				break
			}
		}
		b.ReportMetric(float64(rep.Balances.HTTP.P99.Microseconds())/1000, "balances_p99_ms")
		if len(rep.Mismatches) > 0 {
			b.Fatalf("pages differ between paths: %v", rep.Mismatches)
		}
	}
}
