package assetbench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/bench/internal/measure"
	"github.com/dasch-labs/dasch/hotindex"
)

// Targets of the digital-asset read path, through the HTTP server.
const (
	TargetGetAssetP99 = 5 * time.Millisecond
	TargetBatchP99    = 20 * time.Millisecond
)

// WriteTable prints the run as one table.
func (r *Report) WriteTable(w io.Writer) {
	c := r.Cfg
	var kinds []string
	total := 0
	for k := range NumKinds {
		total += r.Counts[k]
		if r.Counts[k] > 0 {
			kinds = append(kinds, fmt.Sprintf("%s %s", k, measure.Count(r.Counts[k])))
		}
	}
	fmt.Fprintf(w, "dasch digital-asset benchmark: %s assets (%s; %s Core collections), %s accounts, seed %d, %d CPUs, run %s\n",
		measure.Count(total), strings.Join(kinds, ", "), measure.Count(r.CoreCollections), measure.Count(r.Ingest.Accounts), c.Gen.Seed, r.CPUs, r.Elapsed.Round(time.Second))
	fmt.Fprintln(w, "latencies p50 / p99 in ms, one client unless stated; http = JSON-RPC through the server on loopback, reading")
	fmt.Fprintln(w, "states from the asset index (index) or from the store (store); query layer = asset.Render over the store")
	fmt.Fprintln(w, "(edition PDAs, store read, rendering; no HTTP, no JSON); store read = query/assetrows.Load alone; targets judge http, index")
	fmt.Fprintln(w)

	t := &measure.Table{}
	second := "index"
	if r.CacheMB > 0 {
		second = "cache"
	}
	t.Row("", "http, "+second, "http, store", "store ÷ "+second+" p50", "query layer", "store read", "postgres 15", "target")
	ingest := r.IngestAccountsPerSec()
	raw := r.RawRowsPerSec()
	rowsPerSec := float64(r.Ingest.Rows) / r.Ingest.Load.Seconds()
	t.Row("ingest, accounts/s (decoder → batcher → insert)", measure.Count(int(ingest)), "", "", "", "", "", "")
	t.Row("  token and Core assets/s", measure.Count(int(float64(total-r.Counts[KindCNFT])/r.Ingest.Load.Seconds())), "", "", "", "", "", "")
	t.Row("  raw insert of the same rows, rows/s", measure.Count(int(raw)), "", "", "", "", "",
		fmt.Sprintf("ingest at %.0f%% of it (%s rows/s)", 100*rowsPerSec/raw, measure.Count(int(rowsPerSec))))
	t.Row("  compressed NFT events, rows | s", fmt.Sprintf("%s | %.1f", measure.Count(r.Events), r.EventsInsert.Seconds()), "", "", "", "", "", "")
	t.Row("  asset state fold, assets/s | s", fmt.Sprintf("%s | %.1f", measure.Count(int(float64(total)/r.Fold.Seconds())), r.Fold.Seconds()), "", "", "", "", "", "")
	t.Row("  generate (untimed) | ingest | merges, s",
		fmt.Sprintf("%.1f | %.1f | %.1f", r.Generate.Seconds(), r.Ingest.Load.Seconds(), r.Settle.Seconds()), "", "", "", "", "", "")
	t.Row("  asset_accounts on disk, GB | parts", fmt.Sprintf("%.2f | %d", float64(r.DiskBytes)/1e9, r.Parts), "", "", "", "", "", "")
	if r.Postgres {
		t.Row("postgres: rows | COPY s | keys, indexes, analyze s | GB", "", "", "", "", "",
			fmt.Sprintf("%s | %.1f | %.1f | %.2f", measure.Count(int(r.PG.Rows)), r.PG.Load.Seconds(), r.PG.Index.Seconds(), float64(r.PG.DiskBytes)/1e9), "")
	}
	if r.CacheMB > 0 {
		t.Row("document cache: entries | MiB | hit rate", fmt.Sprintf("%s | %d of %d | %.0f%%", measure.Count(r.Cache.Entries), r.Cache.Bytes>>20, r.CacheMB,
			100*float64(r.Cache.Hits)/float64(max(1, r.Cache.Hits+r.Cache.Misses))), "", "", "", "", "", "")
	} else {
		t.Row("asset index: entries | MiB | load s", fmt.Sprintf("%s | %d | %.1f", measure.Count(r.Index.Entries), r.Index.Bytes>>20, r.IndexLoad.Seconds()),
			"", "", "", "", "", fmt.Sprintf("complete: %v", r.Index.Complete))
	}

	r.latRow(t, r.Single, TargetGetAssetP99)
	pgRatioRow(t, r.Single)
	for _, k := range r.PerKind {
		r.latRow(t, k, TargetGetAssetP99)
	}
	r.latRow(t, r.Batch, TargetBatchP99)
	pgRatioRow(t, r.Batch)
	for _, cr := range r.Concurrent {
		target := TargetGetAssetP99
		if cr.Batch {
			target = TargetBatchP99
		}
		t.Row(cr.Label+", req/s", measure.RPS(cr.Indexed), measure.RPS(cr.HTTP), ratio(cr.HTTP.Throughput, cr.Indexed.Throughput, true), "", "", "", "")
		t.Row("  p50 / p99", measure.Lat(cr.Indexed), measure.Lat(cr.HTTP), ratio(float64(cr.HTTP.P50), float64(cr.Indexed.P50), false), "", "", "",
			verdict(cr.Indexed.P99 <= target, fmt.Sprintf("p99≤%dms", target.Milliseconds()))+" (single-client target)")
	}
	if f := r.RequestLog; f.Measured() {
		t.Row(fmt.Sprintf("request log: getAsset %d clients req/s, off | on", f.Clients), measure.RPS(f.Off), measure.RPS(f.On),
			ratio(f.On.Throughput, f.Off.Throughput, true), "", "", "", verdict(f.ThroughputRatio() >= 0.95, "cost ≤5%"))
		t.Row("  one client p50 / p99, off | on", measure.Lat(f.OneOff), measure.Lat(f.OneOn), "", "", "", "",
			verdict(f.AddedP99() <= time.Millisecond, "added p99 ≤1ms")+fmt.Sprintf(" (%d rows, %d dropped)", f.Written, f.Dropped))
	}
	r.listRows(t)
	if rs := r.Restart; rs != nil {
		full := "not reached"
		if rs.Reached {
			full = fmt.Sprintf("%.2f", rs.FullSpeed.Seconds())
		}
		t.Row("restart: to first getAsset | to full speed, s", "", fmt.Sprintf("%.2f | %s", rs.FirstAnswer.Seconds(), full), "", "", "", "",
			fmt.Sprintf("full speed: %d answers in a row, p99 ≤ %g× steady", rs.Window, rs.Factor))
		t.Row("  restarted: first answers | steady, p50 / p99", "", measure.Lat(rs.Warm)+" | "+measure.Lat(rs.Steady), "", "", "", "",
			fmt.Sprintf("serve RSS %d MiB (peak %d)", rs.Memory.RSSBytes>>20, rs.Memory.HWMBytes>>20))
	}
	t.Write(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "raw insert: the first %s rows, pre-built in batches of the batcher's size, inserted one at a time (as the batcher inserts a table) into a copy of asset_accounts\n", measure.Count(r.RawRows))
	fmt.Fprintf(w, "ingest: in-memory accounts through assets.Decoder (%d workers) into the arrowbatch batcher; %s asset_accounts rows, %.0f MB handed to the engine\n",
		c.Parallel, measure.Count(int(r.Ingest.Rows)), float64(r.Ingest.Bytes)/1e6)
	fmt.Fprintf(w, "ids drawn uniformly at random; the first pass of every series (its warmup) checked that each id answers its own asset, never null or an error\n")
	fmt.Fprintf(w, "compressed NFTs: built bubblegum.Events (mint_v1, a third transferred after), written to bubblegum_events as the asset ingest writes them\n")
	if r.Postgres {
		fmt.Fprintln(w, "postgres 15: the Metaplex reference's asset, asset_data, asset_grouping, asset_authority, asset_creators, tokens and")
		fmt.Fprintln(w, "  token_accounts with its keys and indexes, the same assets COPYed in; getAsset and getAssetBatch run its queries")
		fmt.Fprintln(w, "  (get_by_id; get_assets and get_related_for_assets) on one connection, every column decoded; no HTTP, no JSON encoding")
	}
	r.listNotes(w)
	if r.CacheMB > 0 {
		fmt.Fprintf(w, "cache: dasch serve's folded document cache (--asset-cache-mb %d) in place of the asset index; ids drawn uniformly, so its hit rate is the share of the assets it holds\n", r.CacheMB)
	} else {
		fmt.Fprintf(w, "asset index: serving.OpenAssets as `dasch serve --asset-index` opens it (budget %d MiB), syncing every %s during the run\n",
			hotindex.DefaultAssetBudget>>20, hotindex.DefaultSyncInterval)
	}
	for _, k := range r.UnavailableKinds {
		fmt.Fprintf(w, "NOT GENERATED: %s\n", k)
	}
	for _, k := range r.Unserved {
		fmt.Fprintf(w, "NOT RENDERED: %s — every probed %s answers \"not found\" in this build; left out of the measured mix\n", k, k)
	}
	fmt.Fprintf(w, "machine load average when the run started: %s on %d CPUs\n", r.LoadBefore, r.CPUs)
}

// latRow prints one request type's paths.
func (r *Report) latRow(t *measure.Table, row Row, target time.Duration) {
	label := row.Label + ", p50 / p99"
	if row.Skip != "" {
		t.Row(label, "skipped", "", "", "", measure.Lat(row.Store), measure.Lat(row.PG), row.Skip)
		return
	}
	t.Row(label, measure.Lat(row.Indexed), measure.Lat(row.HTTP), ratio(float64(row.HTTP.P50), float64(row.Indexed.P50), false),
		measure.Lat(row.Query), measure.Lat(row.Store), measure.Lat(row.PG), verdict(row.Indexed.P99 <= target, fmt.Sprintf("p99≤%dms", target.Milliseconds())))
}

// pgRatioRow prints dasch's HTTP paths over PostgreSQL's for row.
func pgRatioRow(t *measure.Table, row Row) {
	if row.PG.Measured() {
		t.Row("  dasch ÷ postgres, p50 / p99", latRatio(row.Indexed, row.PG), latRatio(row.HTTP, row.PG), "", "", "", "", "")
	}
}

// latRatio prints a ÷ b of p50 and of p99, "-" unless both are measured.
func latRatio(a, b Series) string {
	if !a.Measured() || !b.Measured() || b.P50 <= 0 || b.P99 <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f / %.2f", float64(a.P50)/float64(b.P50), float64(a.P99)/float64(b.P99))
}

// ratio prints a ÷ b ("×"); with inverse, b ÷ a (throughput: more is
// better, so the index's gain reads the same way as for latency).
func ratio(a, b float64, inverse bool) string {
	if inverse {
		a, b = b, a
	}
	if a <= 0 || b <= 0 {
		return "-"
	}
	return strconv.FormatFloat(a/b, 'f', 1, 64) + "×"
}

func verdict(ok bool, what string) string {
	if ok {
		return what + " PASS"
	}
	return what + " MISS"
}

// listRows prints the listing series: dasch through the server reading
// the store (listings do not read the asset index), beside PostgreSQL.
func (r *Report) listRows(t *measure.Table) {
	l := r.Lists
	if len(l.Rows) == 0 {
		return
	}
	t.Row("listing, pages of 1000: p50 / p99", "", "http, store", "dasch ÷ postgres", "items: dasch | postgres", "", "postgres 15", "")
	for _, row := range l.Rows {
		items := measure.Count(row.Items)
		if row.PG.Measured() {
			same := "differ"
			if row.Same {
				same = "same ids"
			}
			items += " | " + measure.Count(row.PGItems) + ", " + same
		}
		target := ""
		if row.Target > 0 {
			target = verdict(row.HTTP.P99 <= row.Target, fmt.Sprintf("p99≤%dms", row.Target.Milliseconds()))
		}
		t.Row("  "+row.Label, "", measure.Lat(row.HTTP), latRatio(row.HTTP, row.PG), items, "", measure.Lat(row.PG), target)
		if row.Conc.Measured() {
			t.Row(fmt.Sprintf("    %d clients, req/s (p50 / p99)", row.Conc.Clients), "",
				measure.RPS(row.Conc)+" ("+measure.Lat(row.Conc)+")", "", "", "", "", "")
		}
	}
}

// listNotes describes the listing series' data and requests.
func (r *Report) listNotes(w io.Writer) {
	l := r.Lists
	if len(l.Rows) == 0 {
		return
	}
	total := 0
	for _, n := range r.Counts {
		total += n
	}
	share := func(n int) string {
		return fmt.Sprintf("%s (%.2f%%)", measure.Count(n), 100*float64(n)/float64(max(1, total)))
	}
	spread := func(k KeyStats) string {
		return fmt.Sprintf("%s keys, %s / %s / %s", measure.Count(k.Keys), measure.Count(k.Min), measure.Count(k.Median), measure.Count(k.Max))
	}
	fmt.Fprintf(w, "listing: skewed generator; the big owner holds %s assets, the big Token Metadata collection %s verified members,\n",
		share(l.BigOwner), share(l.BigCollection))
	fmt.Fprintf(w, "  the big creator %s; assets per key, min / median / max: owners %s, creators %s, authorities %s, collections %s\n",
		share(l.BigCreator), spread(l.Owners), spread(l.Creators), spread(l.Authorities), spread(l.Collections))
	fmt.Fprintln(w, "  cursors followed untimed first; every warmup answer checked: listings against the ids the cursors gave, searches non-empty and in id order")
	for _, row := range l.Rows {
		note := row.Note
		if row.GrandTotal > 0 || row.PGGrandTotal > 0 {
			note += fmt.Sprintf("; grand total %s", measure.Count(int(row.GrandTotal)))
			if row.PG.Measured() {
				note += fmt.Sprintf(", postgres %s", measure.Count(int(row.PGGrandTotal)))
			}
		}
		if note != "" {
			fmt.Fprintf(w, "  %s: %s\n", row.Label, note)
		}
	}
	if r.Postgres {
		fmt.Fprintln(w, "  postgres: the reference's page query (its condition, id DESC, LIMIT 1000, id < cursor or OFFSET), then its")
		fmt.Fprintln(w, "  get_related_for_assets reads for the page's ids; showGrandTotal adds count(*) of the same condition")
	}
}
