package assetbench

import (
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/bench/benchjson"
)

// Path names of the series in the run's record.
const (
	PathIndex    = "http_index"
	PathCache    = "http_cache" // the second column with Config.CacheMB
	PathStore    = "http_store"
	PathQuery    = "query_layer"
	PathRead     = "store_read"
	PathPostgres = "postgres"
)

// JSON is the run's record (bench/benchjson). Series are named
// "<request> / <path>": the request in the table's words, lower case with
// underscores ("getasset_all_kinds", "getasset_nft" for a kind,
// "getassetbatch_100_ids", "getasset_16_clients"), the path one of the
// Path constants; the restart's are "restart_first_answers / http_store"
// and "restart_steady / http_store".
func (r *Report) JSON() *benchjson.Run {
	c := r.Cfg
	j := benchjson.New("assets", r.Started, r.LoadBefore)
	j.ElapsedS = r.Elapsed.Seconds()
	j.Params["assets"] = c.Gen.Assets
	j.Params["seed"] = c.Gen.Seed
	j.Params["batch_ids"] = c.BatchIDs
	j.Params["clients"] = c.Clients
	j.Params["parallel"] = c.Parallel
	j.Params["postgres"] = r.Postgres
	j.Params["restart"] = r.Restart != nil
	second := PathIndex
	if r.CacheMB > 0 {
		second = PathCache
		j.Params["asset_cache_mb"] = r.CacheMB
		j.Figure("cache_hit_rate", float64(r.Cache.Hits)/float64(max(1, r.Cache.Hits+r.Cache.Misses)))
	}
	add := func(req, path string, s Series) {
		j.Add(seriesName(req)+" / "+path, s.N, s.Clients, s.P50, s.P99, s.Throughput)
	}
	row := func(row Row) {
		add(row.Label, second, row.Indexed)
		add(row.Label, PathStore, row.HTTP)
		add(row.Label, PathQuery, row.Query)
		add(row.Label, PathRead, row.Store)
		add(row.Label, PathPostgres, row.PG)
	}
	row(r.Single)
	for _, k := range r.PerKind {
		k.Label = "getAsset " + k.Label
		row(k)
	}
	row(r.Batch)
	for _, cr := range r.Concurrent {
		add(cr.Label, second, cr.Indexed)
		add(cr.Label, PathStore, cr.HTTP)
	}
	ratios := func(name string, row Row) {
		if !row.PG.Measured() {
			return
		}
		for _, x := range []struct {
			path string
			s    Series
		}{{second, row.Indexed}, {PathStore, row.HTTP}} {
			if x.s.Measured() {
				j.Figure(name+"_"+x.path+"_over_pg_p50", float64(x.s.P50)/float64(row.PG.P50))
				j.Figure(name+"_"+x.path+"_over_pg_p99", float64(x.s.P99)/float64(row.PG.P99))
			}
		}
	}
	ratios("getasset", r.Single)
	ratios("getassetbatch", r.Batch)
	if f := r.RequestLog; f.Measured() {
		c := strconv.Itoa(f.Clients)
		add("getAsset "+c+" clients", PathStore+"_log_off", f.Off)
		add("getAsset "+c+" clients", PathStore+"_log_on", f.On)
		add("getAsset one client", PathStore+"_log_off", f.OneOff)
		add("getAsset one client", PathStore+"_log_on", f.OneOn)
		j.Figure("request_log_throughput_ratio", f.ThroughputRatio())
		j.Figure("request_log_added_p99_ms", float64(f.AddedP99().Microseconds())/1000)
		j.Count("request_log_rows", int64(f.Written))
		j.Count("request_log_dropped", int64(f.Dropped))
	}
	j.Params["lists"] = !c.NoLists
	for _, lr := range r.Lists.Rows {
		name := seriesName(lr.Label)
		add(lr.Label, PathStore, lr.HTTP)
		add(lr.Label, PathPostgres, lr.PG)
		add(lr.Label+" "+strconv.Itoa(lr.Conc.Clients)+" clients", PathStore, lr.Conc)
		j.Count(name+"_items", int64(lr.Items))
		if lr.GrandTotal > 0 {
			j.Count(name+"_grand_total", lr.GrandTotal)
		}
		if lr.PG.Measured() {
			j.Count(name+"_pg_items", int64(lr.PGItems))
			same := int64(0)
			if lr.Same {
				same = 1
			}
			j.Count(name+"_same_ids", same)
			if lr.PGGrandTotal > 0 {
				j.Count(name+"_pg_grand_total", lr.PGGrandTotal)
			}
			j.Figure(name+"_over_pg_p50", float64(lr.HTTP.P50)/float64(lr.PG.P50))
			j.Figure(name+"_over_pg_p99", float64(lr.HTTP.P99)/float64(lr.PG.P99))
		}
	}
	if l := r.Lists; len(l.Rows) > 0 {
		j.Count("list_big_owner_assets", int64(l.BigOwner))
		j.Count("list_small_owner_assets", int64(l.SmallOwner))
		j.Count("list_big_collection_assets", int64(l.BigCollection))
		j.Count("list_big_creator_assets", int64(l.BigCreator))
		j.Count("list_page_mode_page", int64(l.Page))
		for name, k := range map[string]KeyStats{"owners": l.Owners, "creators": l.Creators, "authorities": l.Authorities, "collections": l.Collections} {
			j.Count("list_"+name, int64(k.Keys))
			j.Count("list_"+name+"_max_assets", int64(k.Max))
			j.Count("list_"+name+"_median_assets", int64(k.Median))
		}
	}

	total := 0
	for k := range NumKinds {
		total += r.Counts[k]
		j.Count("assets_"+seriesName(k.String()), int64(r.Counts[k]))
	}
	j.Count("assets", int64(total))
	j.Count("core_collections", int64(r.CoreCollections))
	j.Count("accounts", int64(r.Ingest.Accounts))
	j.Count("asset_accounts_rows", r.Ingest.Rows)
	j.Count("bubblegum_events", int64(r.Events))
	j.Count("parts", int64(r.Parts))
	j.Count("asset_index_entries", int64(r.Index.Entries))
	j.Figure("ingest_accounts_per_s", r.IngestAccountsPerSec())
	j.Figure("raw_insert_rows_per_s", r.RawRowsPerSec())
	j.Seconds("generate_s", r.Generate)
	j.Seconds("ingest_s", r.Ingest.Load)
	j.Seconds("events_s", r.EventsInsert)
	j.Seconds("fold_s", r.Fold)
	j.Seconds("merges_s", r.Settle)
	j.Seconds("asset_index_load_s", r.IndexLoad)
	j.Figure("asset_index_bytes", float64(r.Index.Bytes))
	j.Figure("disk_bytes", float64(r.DiskBytes))
	if r.Postgres {
		j.Count("pg_rows", r.PG.Rows)
		j.Seconds("pg_copy_s", r.PG.Load)
		j.Seconds("pg_index_s", r.PG.Index)
		j.Figure("pg_disk_bytes", float64(r.PG.DiskBytes))
	}
	if rs := r.Restart; rs != nil {
		j.Seconds("restart_first_answer_s", rs.FirstAnswer)
		if rs.Reached {
			j.Seconds("restart_full_speed_s", rs.FullSpeed)
		}
		reached := int64(0)
		if rs.Reached {
			reached = 1
		}
		j.Count("restart_full_speed_reached", reached)
		j.Count("restart_window", int64(rs.Window))
		j.Figure("restart_factor", rs.Factor)
		add("restart first answers", PathStore, rs.Warm)
		add("restart steady", PathStore, rs.Steady)
		if rs.Memory.RSSBytes > 0 {
			j.Memory["serve"] = rs.Memory
		}
	}
	for k, m := range r.Memory {
		j.Memory[k] = m
	}
	return j
}

// seriesName turns a table label into a series name: lower case, words
// joined by underscores, commas, parentheses and plus signs dropped.
func seriesName(label string) string {
	label = strings.ToLower(strings.NewReplacer(",", "", "(", "", ")", "", "/", " ", "+", " ").Replace(label))
	return strings.Join(strings.Fields(label), "_")
}
