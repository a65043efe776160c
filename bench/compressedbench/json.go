package compressedbench

import (
	"strings"

	"github.com/dasch-labs/dasch/bench/benchjson"
)

// JSON is the run's record (bench/benchjson). Series are named
// "<page> / <path>", the page in the table's words with spaces as
// underscores, e.g. "holders_depth_0 / http", "balances_by_owner / postgres".
func (r *Report) JSON() *benchjson.Run {
	c := r.Cfg
	j := benchjson.New("compressed", r.Started, r.LoadBefore)
	j.ElapsedS = r.Elapsed.Seconds()
	for k, v := range map[string]any{
		"accounts": c.Gen.Accounts, "mints": c.Gen.Mints, "seed": c.Gen.Seed, "clients": c.Clients,
		"chunk": c.ChunkAccounts, "part_chunks": c.PartChunks, "transfers": c.Transfers, "live_slots": c.LiveSlots,
		"postgres": r.Postgres, "hot_index": !c.NoHotIndex,
	} {
		j.Params[k] = v
	}
	add := func(page, path string, s Series) {
		j.Add(seriesName(page)+" / "+path, s.N, s.Clients, s.P50, s.P99, s.Throughput)
	}
	pages := append(append([]PageRow{}, r.Holders...), r.Balances, r.TokensFew, r.TokensWhale)
	for _, p := range pages {
		if p.Label == "" || p.Skip != "" {
			continue
		}
		add(p.Label, "http", p.HTTP)
		add(p.Label, "query_layer", p.Query)
		add(p.Label, "postgres", p.PG)
		add(p.Label, "postgres_row_value", p.PGRow)
		add(p.Label, "postgres_token_accounts_alone", p.PGLean)
	}
	for _, p := range []PageRow{r.HoldersConc, r.BalancesConc} {
		if p.Label != "" {
			add(p.Label, "http", p.HTTP)
			add(p.Label, "postgres", p.PG)
		}
	}
	for _, l := range r.Transfers.Live {
		add("live slot "+l.Name, "ingest", l.Series)
	}

	d, p := r.Dasch, r.PG
	j.Count("accounts", int64(d.Accounts))
	j.Count("holdings", int64(d.Holdings))
	j.Count("largest_mint_holders", int64(r.LargestHolders))
	j.Count("rows", d.Rows)
	j.Count("mismatches", int64(len(r.Mismatches)))
	j.Count("transfers", int64(r.Transfers.Transfers))
	j.Figure("ingest_accounts_per_s", d.AccountsPerSec())
	j.Seconds("ingest_s", d.Load)
	j.Seconds("ingest_cpu_s", d.CPU)
	j.Seconds("merges_s", d.Settle)
	j.Figure("disk_bytes", float64(d.DiskBytes))
	j.Figure("narrow_rows_per_s", r.NarrowRowsPerSec)
	if r.SameRows.Load > 0 {
		j.Figure("same_rows_accounts_per_s", r.SameRows.AccountsPerSec())
	}
	if tr := r.Transfers; tr.Transfers > 0 {
		j.Figure("transfers_per_s", tr.Rate())
		if tr.PG > 0 {
			j.Figure("pg_transfers_per_s", tr.PGRate())
		}
	}
	if r.Postgres {
		j.Figure("pg_ingest_accounts_per_s", p.AccountsPerSec())
		j.Figure("pg_copy_accounts_per_s", p.CopyAccountsPerSec())
		j.Seconds("pg_copy_s", p.Load)
		j.Seconds("pg_index_s", p.Index)
		j.Figure("pg_disk_bytes", float64(p.DiskBytes))
		j.Figure("ingest_dasch_over_pg", d.AccountsPerSec()/p.AccountsPerSec())
	}
	for k, m := range r.Memory {
		j.Memory[k] = m
	}
	return j
}

// seriesName turns a table label into a series name: lower case, words
// joined by underscores, commas dropped.
func seriesName(label string) string {
	label = strings.ToLower(strings.NewReplacer(",", "", "/", " ").Replace(label))
	return strings.Join(strings.Fields(label), "_")
}
