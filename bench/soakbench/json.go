package soakbench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
)

// JSON is the run in the bench JSON form.
func (r *Report) JSON(started time.Time, load string) *benchjson.Run {
	run := benchjson.New("soak", started, load)
	run.ElapsedS = time.Since(started).Seconds()
	run.Sample("bench", benchjson.SelfMemory)
	c := r.Cfg
	run.Params["clients"], run.Params["rate_per_client"], run.Params["hostile"] = c.Clients, c.Rate, c.Hostile
	run.Params["quiet_s"], run.Params["soak_s"], run.Params["memory_mib"], run.Params["seed"] = c.Quiet.Seconds(), c.Soak.Seconds(), c.MemoryMiB, c.Seed
	run.Params["memory_limit"] = r.Limited
	run.Add("legit_quiet", r.Quiet.N, c.Clients, r.Quiet.P50, r.Quiet.P99, r.Quiet.PerS)
	run.Add("legit_barrage", r.Soak.N, c.Clients, r.Soak.P50, r.Soak.P99, r.Soak.PerS)
	if r.Quiet.P99 > 0 {
		run.Figure("p99_barrage_over_quiet", float64(r.Soak.P99)/float64(r.Quiet.P99))
	}
	run.Figure("hostile_per_s", r.HostilePerS)
	run.Count("hostile_sent", int64(r.HostileSent))
	run.Count("internal_errors", int64(r.Internal))
	run.Count("no_answer", int64(r.Transport))
	run.Count("legit_failed_quiet", int64(r.Quiet.Failed))
	run.Count("legit_failed_barrage", int64(r.Soak.Failed))
	run.Count("server_exited", boolCount(r.Exited))
	run.Count("health_after", int64(r.HealthAfter))
	run.Count("memory_peak_bytes", r.PeakMemory)
	run.Count("memory_limit_hits", r.LimitHits)
	for s, n := range r.ByStatus {
		run.Count("status_"+strconv.Itoa(s), int64(n))
	}
	run.Memory["serve"] = r.ServerMemory
	return run
}

func boolCount(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Write prints the report.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "memory limit: %s\n", r.Limited)
	fmt.Fprintf(w, "%-16s %9s %9s %9s %9s %8s\n", "legitimate", "answers", "failed", "p50", "p99", "req/s")
	for _, p := range []struct {
		name string
		l    Latency
	}{{"quiet", r.Quiet}, {"beside barrage", r.Soak}} {
		fmt.Fprintf(w, "%-16s %9d %9d %9s %9s %8.0f\n", p.name, p.l.N, p.l.Failed, ms(p.l.P50), ms(p.l.P99), p.l.PerS)
		for _, e := range p.l.Errors {
			fmt.Fprintf(w, "  failed: %s\n", e)
		}
	}
	fmt.Fprintf(w, "hostile: %d requests (%.0f/s), %d internal errors, %d without an answer\n",
		r.HostileSent, r.HostilePerS, r.Internal, r.Transport)
	for _, k := range slices.Sorted(maps.Keys(r.ByKind)) {
		fmt.Fprintf(w, "  %-22s %d", k, r.ByKind[k])
		if n := r.NoAnswer[k]; n > 0 {
			// A body past the cap is cut off: the server closes the
			// connection as it reads it.
			fmt.Fprintf(w, " (%d without an answer)", n)
		}
		fmt.Fprintln(w)
	}
	for _, s := range slices.Sorted(maps.Keys(r.ByStatus)) {
		fmt.Fprintf(w, "  HTTP %d: %d\n", s, r.ByStatus[s])
	}
	fmt.Fprintf(w, "server: exited %v, /health %d after, peak %d MiB, limit hit %d times, rss %d MiB (peak %d)\n",
		r.Exited, r.HealthAfter, r.PeakMemory>>20, r.LimitHits, r.ServerMemory.RSSBytes>>20, r.ServerMemory.HWMBytes>>20)
	if r.Held() {
		fmt.Fprintln(w, "held: no internal error, no exit, every legitimate call answered")
	} else {
		fmt.Fprintln(w, "NOT HELD")
	}
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + " ms" }
