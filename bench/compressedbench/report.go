package compressedbench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/bench/internal/measure"
)

// Targets of the compressed-state read paths and ingest.
const (
	TargetHoldersP99  = 20 * time.Millisecond
	TargetBalancesP99 = 10 * time.Millisecond
	TargetIngestRate  = 300_000 // token accounts per second
	TargetIngestVsPG  = 10.0    // × PostgreSQL's load rate
)

// WriteTable prints the run as one table: dasch, PostgreSQL, their ratio
// and the target verdict per figure.
func (r *Report) WriteTable(w io.Writer) {
	t := &measure.Table{}
	c := r.Cfg
	fmt.Fprintf(w, "dasch compressed-state benchmark: %s token accounts, %s mints (largest %s holders), %s holdings, seed %d, %d CPUs, run %s\n",
		measure.Count(r.Dasch.Accounts), measure.Count(c.Gen.Mints), measure.Count(r.LargestHolders), measure.Count(r.Dasch.Holdings), c.Gen.Seed, r.CPUs, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "latencies p50 / p99 in ms over loopback; dasch/pg below 1 means dasch is faster for latencies, above 1 for rates\n")
	fmt.Fprintf(w, "HTTP latencies end when the whole answer is received (its decoding by the client is not timed; every page is decoded and compared before timing)\n\n")
	t.Row("", "dasch", "postgres 15", "dasch/pg", "target")

	// Ingest.
	d, p := r.Dasch, r.PG
	dRate := d.AccountsPerSec()
	if r.Postgres {
		pRate := p.AccountsPerSec()
		t.Row("ingest, token accounts/s", measure.Count(int(dRate)), measure.Count(int(pRate))+" (load+index)", ratio(dRate, pRate),
			verdict(dRate >= TargetIngestRate, "≥300k/s")+", "+verdict(dRate >= TargetIngestVsPG*pRate, "≥10× pg"))
		t.Row("  pg COPY alone, accounts/s", "", measure.Count(int(p.CopyAccountsPerSec())), ratio(dRate, p.CopyAccountsPerSec()), "")
		tx := p.TxAccountsPerSec()
		t.Row("  pg with Photon's transaction tables, acc/s", "", measure.Count(int(tx))+" (load+index)", ratio(dRate, tx),
			verdict(dRate >= TargetIngestVsPG*tx, "≥10× pg with them"))
		lean := p.LeanAccountsPerSec()
		t.Row("  pg without accounts table, accounts/s", "", measure.Count(int(lean))+" (load+index)", ratio(dRate, lean),
			verdict(dRate >= TargetIngestVsPG*lean, "≥10× pg lean"))
	} else {
		t.Row("ingest, token accounts/s", measure.Count(int(dRate)), "-", "-", verdict(dRate >= TargetIngestRate, "≥300k/s"))
	}
	raw := r.SameRows
	if raw.Load > 0 {
		rawRate := raw.AccountsPerSec()
		t.Row("  same rows, raw insert (ceiling), acc/s", measure.Count(int(rawRate)), "", "",
			fmt.Sprintf("ingest at %.0f%% of it", 100*dRate/rawRate))
		t.Row("  same rows CPU, s | per 1M accounts", cpuCell(raw), "", "", busy(raw, r.CPUs))
		t.Row("    in the kernel, s | minor page faults", kernelCell(raw), "", "", "")
	}
	dRows := float64(d.Rows) / d.Load.Seconds()
	t.Row("  rows/s over all tables written", fmt.Sprintf("%s (%d tables)", measure.Count(int(dRows)), d.Tables),
		pgOr(r.Postgres, func() string {
			return fmt.Sprintf("%s (3 tables, COPY)", measure.Count(int(float64(p.Rows)/p.Load.Seconds())))
		}), "", "")
	t.Row("  MB/s handed to the engine (decoder)", fmt.Sprintf("%.0f", float64(d.Bytes)/d.Load.Seconds()/1e6),
		pgOr(r.Postgres, func() string { return fmt.Sprintf("%.0f", float64(p.Bytes)/p.Load.Seconds()/1e6) }), "", "")
	t.Row("  engine raw limit, narrow rows/s", measure.Count(int(r.NarrowRowsPerSec)), "", "",
		fmt.Sprintf("ingest at %.0f%% of it (rows)", 100*dRows/r.NarrowRowsPerSec))
	t.Row("  ingest | index+analyze | merges, s", fmt.Sprintf("%.1f | - | %.1f", d.Load.Seconds(), d.Settle.Seconds()),
		pgOr(r.Postgres, func() string { return fmt.Sprintf("%.1f | %.1f | -", p.Load.Seconds(), p.Index.Seconds()) }), "", "")
	t.Row("  ingest CPU, s | per 1M accounts", cpuCell(d), "", "", busy(d, r.CPUs))
	t.Row("    in the kernel, s | minor page faults", kernelCell(d), "", "", "")
	t.Row("  state steps over chunks inserted", fmt.Sprintf("%d over %d of %s", d.Steps, d.Chunks, measure.Count(r.Cfg.ChunkAccounts)), "", "",
		fmt.Sprintf("steps ran %.1fs after the last insert", d.StepTail.Seconds()))
	t.Row("  parts committed (a part per table)", fmt.Sprintf("%d sets of %d chunks", d.PartSets, r.Cfg.PartChunks), "", "", "")
	t.Row("  on disk, GB", fmt.Sprintf("%.2f", float64(d.DiskBytes)/1e9),
		pgOr(r.Postgres, func() string { return fmt.Sprintf("%.2f", float64(p.DiskBytes)/1e9) }),
		pgOr(r.Postgres, func() string { return ratio(float64(d.DiskBytes), float64(p.DiskBytes)) }), "")

	if tr := r.Transfers; tr.Transfers > 0 {
		label := "transfers (1 spent + 2 created), tx/s"
		pgRate, rat := "-", "-"
		if tr.PG > 0 {
			pgRate, rat = measure.Count(int(tr.PGRate()))+" (1 conn)", ratio(tr.Rate(), tr.PGRate())
		}
		t.Row(label, measure.Count(int(tr.Rate())), pgRate, rat,
			fmt.Sprintf("%s tx over the state, after the pages", measure.Count(tr.Transfers)))
		t.Row("  state steps over chunks inserted", fmt.Sprintf("%d over %d of %s tx", tr.Steps, tr.Chunks, measure.Count(r.Cfg.transferChunk())), "", "", "")
		for i, l := range tr.Live {
			note := fmt.Sprintf("%d slots, each stepped before the next", l.N)
			if i > 0 {
				note = fmt.Sprintf("p50 %s the first series'; warmup slot %s ms", ratio(float64(l.P50), float64(tr.Live[0].P50)), measure.MS(l.Warmup))
			}
			t.Row(fmt.Sprintf("  live slot of %d tx, %s, p50 / p99 ms", transfersPerSlot, l.Name), measure.Lat(l.Series), "", "", note)
		}
	}

	// Pages, one client.
	for _, h := range r.Holders {
		r.pageRows(t, h, TargetHoldersP99, true)
	}
	r.pageRows(t, r.Balances, TargetBalancesP99, false)
	for _, row := range []PageRow{r.TokensFew, r.TokensWhale} {
		if row.Label != "" {
			r.pageRows(t, row, 0, false)
		}
	}

	// Pages, many clients.
	for _, cr := range []PageRow{r.HoldersConc, r.BalancesConc} {
		if cr.Label == "" {
			continue
		}
		t.Row(cr.Label+", req/s", measure.RPS(cr.HTTP), measure.RPS(cr.PG), seriesRatio(cr.HTTP, cr.PG, func(s Series) float64 { return s.Throughput }), "")
		t.Row("  p50 / p99 ms", measure.Lat(cr.HTTP), measure.Lat(cr.PG), latRatio(cr.HTTP, cr.PG), "")
	}
	t.Write(w)

	fmt.Fprintln(w)
	if r.Postgres {
		fmt.Fprintln(w, "postgres: Photon's schema and indexes, loaded with binary COPY then indexed; holders pages use Photon's keyset filter")
		fmt.Fprintln(w, "  (amount < $2 OR (amount = $2 AND owner < $3)); \"pg row-value keyset\" is (amount, owner) < ($2, $3), its best case")
		fmt.Fprintln(w, "postgres holds Photon's accounts table (every account whole, as dasch's compressed_accounts) and its token_accounts;")
		fmt.Fprintln(w, "  its token accounts page joins them, as Photon's does; \"pg token_accounts alone\" and \"pg without accounts table\"")
		fmt.Fprintln(w, "  are the narrower reference of earlier runs, which could not answer the page;")
		fmt.Fprintln(w, "  \"pg with Photon's transaction tables\" adds its transactions and account_transactions (keys, indexes, references),")
		fmt.Fprintln(w, "  which dasch's signature tables and account rows match: the headline ratio leaves them out, as earlier runs did")
	}
	fmt.Fprintf(w, "balances pages cycle over %d owners holding %s to %s mints; concurrent runs stop at %s requests or %s\n",
		r.BalanceOwners, measure.Count(r.OwnerMintsMin), measure.Count(r.OwnerMintsMax), measure.Count(c.Concurrent.Requests), c.Concurrent.Time)
	if len(d.Phases) > 0 {
		fmt.Fprintf(w, "dasch ingest time by phase, s (inserts summed over %d streams; the step runs beside them): %s\n", c.Parallel, d.Phases.list(time.Second, 1, 0))
	}
	if raw := r.SameRows; len(raw.Phases) > 0 {
		fmt.Fprintf(w, "same rows, raw insert time by table, s (summed over %d streams): %s\n", c.Parallel, raw.Phases.list(time.Second, 1, 0))
		fmt.Fprintf(w, "engine counters (system.events), s: same rows %s; ingest %s\n", raw.Engine, d.Engine)
	}
	if tr := r.Transfers; len(tr.Phases) > 0 {
		fmt.Fprintf(w, "dasch transfers time by phase, s: %s\n", tr.Phases.list(time.Second, 1, 0))
		for _, l := range tr.Live {
			fmt.Fprintf(w, "dasch live slot time by phase, %s, ms per slot: %s\n", l.Name, l.Phases.list(time.Millisecond, 0, 0.5))
		}
		fmt.Fprintf(w, "transfers checked: every spent account marked spent, every balance equal to its unspent accounts, supply %d unchanged\n", tr.SupplyAfter)
	}
	if len(d.Parts) > 0 {
		names := make([]string, 0, len(d.Parts))
		for k := range d.Parts {
			names = append(names, k)
		}
		sort.Strings(names)
		var parts []string
		for _, k := range names {
			parts = append(parts, fmt.Sprintf("%s %d", k, d.Parts[k]))
		}
		fmt.Fprintf(w, "dasch active parts when measured: %s\n", strings.Join(parts, ", "))
	}
	if len(r.Mismatches) == 0 {
		fmt.Fprintln(w, "pages: every measured path returned identical pages")
	}
	for _, m := range r.Mismatches {
		fmt.Fprintf(w, "MISMATCH %s\n", m)
	}
	fmt.Fprintf(w, "machine load average when the run started: %s on %d CPUs\n", r.LoadBefore, r.CPUs)
	fmt.Fprintln(w, "before each timed phase of dasch the run writes the dirty pages of the earlier ones to disk (sync), untimed")
	fmt.Fprintf(w, "engine allocator options: %s\n", r.Allocator)
}

// pageRows prints one page measurement and its sub-rows.
func (r *Report) pageRows(t *measure.Table, row PageRow, target time.Duration, holders bool) {
	label := row.Label + ", p50 / p99 ms"
	if row.Skip != "" {
		t.Row(label, "skipped", "", "", row.Skip)
		return
	}
	// A zero target: no absolute target, only the comparison.
	var verdicts []string
	if row.HTTP.Measured() {
		if target > 0 {
			verdicts = append(verdicts, verdict(row.HTTP.P99 <= target, fmt.Sprintf("p99≤%dms", target.Milliseconds())))
		}
		if row.PG.Measured() {
			verdicts = append(verdicts, verdict(row.HTTP.P99 <= row.PG.P99, "≤pg"))
		}
	}
	v := strings.Join(verdicts, ", ")
	if !row.HTTP.Measured() {
		v = "not measured"
	}
	t.Row(label, measure.Lat(row.HTTP), measure.Lat(row.PG), latRatio(row.HTTP, row.PG), v)
	t.Row("  dasch query layer alone (no HTTP)", measure.Lat(row.Query), "", latRatio(row.Query, row.PG), "")
	if holders && row.PGRow.Measured() {
		t.Row("  pg row-value keyset", "", measure.Lat(row.PGRow), latRatio(row.HTTP, row.PGRow), "")
	}
	if row.PGLean.Measured() {
		t.Row("  pg token_accounts alone (hash, amount)", "", measure.Lat(row.PGLean), latRatio(row.HTTP, row.PGLean),
			verdict(row.HTTP.P99 <= row.PGLean.P99, "≤pg lean"))
	}
}

func verdict(ok bool, what string) string {
	if ok {
		return what + " PASS"
	}
	return what + " MISS"
}

func pgOr(ok bool, f func() string) string {
	if !ok {
		return "-"
	}
	return f()
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func latRatio(a, b Series) string {
	if !a.Measured() || !b.Measured() {
		return "-"
	}
	return fmt.Sprintf("%.2f / %.2f", float64(a.P50)/float64(b.P50), float64(a.P99)/float64(b.P99))
}

func seriesRatio(a, b Series, f func(Series) float64) string {
	if !a.Measured() || !b.Measured() {
		return "-"
	}
	return ratio(f(a), f(b))
}

func b58(k [32]byte) string { return base58.Encode(k[:]) }

// cpuCell prints a run's CPU time, whole and per 1M accounts.
func cpuCell(f IngestFigures) string {
	return fmt.Sprintf("%.1f | %.1f", f.CPU.Seconds(), f.CPU.Seconds()/float64(f.Accounts)*1e6)
}

// kernelCell prints the part of a run's CPU time spent in the kernel, and
// its minor page faults.
func kernelCell(f IngestFigures) string {
	share := 0.0
	if f.CPU > 0 {
		share = 100 * f.SystemCPU.Seconds() / f.CPU.Seconds()
	}
	return fmt.Sprintf("%.1f (%.0f%%) | %s", f.SystemCPU.Seconds(), share, measure.Count(int(f.Faults)))
}

// busy is the share of the machine's CPUs a run kept busy while timed.
func busy(f IngestFigures, cpus int) string {
	return fmt.Sprintf("%.0f%% of %d CPUs busy", 100*f.CPU.Seconds()/f.Load.Seconds()/float64(cpus), cpus)
}
