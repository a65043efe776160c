package lagbench

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
)

// JSON is the run in the bench JSON form: a series per phase (the lags
// as latencies, the kept-up write rate as its throughput) and figures
// per phase.
func (r *Report) JSON(started time.Time, load string) *benchjson.Run {
	run := benchjson.New("lag", started, load)
	run.ElapsedS = time.Since(started).Seconds()
	run.Sample("bench", benchjson.SelfMemory)
	c := r.Cfg
	run.Params["nfts"], run.Params["mints"], run.Params["holders"] = c.NFTs, c.Mints, c.Holders
	run.Params["rates"], run.Params["phase_s"], run.Params["slot_ms"] = c.Rates, c.Phase.Seconds(), c.SlotTime.Milliseconds()
	run.Params["probes"], run.Params["mainnet_rate"] = c.Probes, MainnetRate
	run.Count("preload_accounts", int64(r.PreloadAccounts))
	run.Seconds("preload_visible_s", r.Preload)
	for _, ph := range r.Phases {
		name := "lag_" + strconv.Itoa(ph.Rate)
		run.Add(name, ph.Lag.N, c.Probes, ph.Lag.P50, ph.Lag.P99, ph.Kept)
		run.Seconds(name+"_p90_s", ph.Lag.P90)
		run.Seconds(name+"_max_s", ph.Lag.Max)
		run.Seconds(name+"_mean_s", ph.Lag.Mean)
		run.Figure(name+"_kept_writes_per_s", ph.Kept)
		run.Count(name+"_writes", int64(ph.Writes))
		run.Count(name+"_probes_seen", int64(ph.Seen))
		run.Count(name+"_probes", int64(ph.Want))
		run.Memory["serve_"+strconv.Itoa(ph.Rate)] = ph.Memory
	}
	return run
}

// Write prints the report's table.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "preload: %d accounts (%d NFTs, %d mints, %d holders) answer after %.1fs\n",
		r.PreloadAccounts, r.Cfg.NFTs, r.Cfg.Mints, r.Cfg.Holders, r.Preload.Seconds())
	fmt.Fprintf(w, "%-14s %8s %8s %9s %9s %9s %9s %12s %9s\n", "writes/s", "slots", "probes", "p50", "p90", "p99", "max", "kept/s", "rss MiB")
	for _, ph := range r.Phases {
		fmt.Fprintf(w, "%-14d %8d %4d/%-4d %9s %9s %9s %9s %12.0f %9d\n", ph.Rate, ph.Slots, ph.Seen, ph.Want,
			ms(ph.Lag.P50), ms(ph.Lag.P90), ms(ph.Lag.P99), ms(ph.Lag.Max), ph.Kept, ph.Memory.HWMBytes>>20)
	}
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + " ms" }
