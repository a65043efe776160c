package assetbench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/internal/proc"
)

// RestartConfig says how to restart `dasch serve` on the run's store.
type RestartConfig struct {
	// Bin is the dasch binary.
	Bin string
	// Dir is the store's directory; no process may hold it.
	Dir string
	// Window is the run of consecutive answers that must all be at full
	// speed: their p99 within Factor of the steady state's. Default 100
	// and 2.
	Window int
	Factor float64
	// Warm bounds the answers timed after the first one, Steady the
	// steady state measured after them.
	Warm, Steady Budget
	// Timeout bounds the wait for the first answer. Default 5 minutes.
	Timeout time.Duration
	// Progress receives a line per step; nil discards them.
	Progress func(format string, a ...any)
}

func (c *RestartConfig) applyDefaults() {
	if c.Window <= 0 {
		c.Window = 100
	}
	if c.Factor <= 0 {
		c.Factor = 2
	}
	if c.Warm == (Budget{}) {
		c.Warm = Budget{Requests: 3_000, Time: 20 * time.Second, MinRequests: 3 * c.Window}
	}
	if c.Steady == (Budget{}) {
		c.Steady = Budget{Requests: 1_000, Time: 6 * time.Second, MinRequests: 100}
	}
	c.Warm.MinRequests = max(c.Warm.MinRequests, c.Window)
	if c.Timeout <= 0 {
		c.Timeout = 5 * time.Minute
	}
	if c.Progress == nil {
		c.Progress = func(string, ...any) {}
	}
}

// RestartFigures is a restart of `dasch serve --asset-index=false` on the
// loaded store, timed from the process's start.
type RestartFigures struct {
	// FirstAnswer is the time to the first getAsset answered.
	FirstAnswer time.Duration
	// FullSpeed is the time until Window consecutive getAsset answers
	// after it had a p99 within Factor of Steady's, zero if none did
	// within the Warm budget (Reached false).
	FullSpeed time.Duration
	Reached   bool
	// Warm is the answers after the first, Steady the steady state
	// measured after them, one client each.
	Warm, Steady   Series
	Window         int
	Factor         float64
	WindowP99      time.Duration // p99 of the window that reached full speed
	Memory         benchjson.Memory
	RequestsBefore int // answers before that window's first
}

// MeasureRestart starts `dasch serve` on the store the run loaded, which
// this process must have closed, and times it to its first getAsset
// answer and to full speed; it stops the server before returning. The
// figures go to r.Restart.
func (r *Report) MeasureRestart(ctx context.Context, rc RestartConfig) error {
	rc.applyDefaults()
	p, err := NewPlan(r.Cfg.Gen)
	if err != nil {
		return err
	}
	m := &measurer{p: p, rep: r}
	pool := m.served()
	if len(pool) == 0 {
		return errors.New("restart: no generated kind is rendered by this build")
	}
	addr, err := proc.FreeAddr()
	if err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	warm := draw{p: p, pool: pool, dom: domDraw + 64, size: 1}
	steady := draw{p: p, pool: pool, dom: domDraw + 65, size: 1}
	rc.Progress("restart: dasch serve --asset-index=false on %s", rc.Dir)
	// No rations: the suite measures the server, not its rate limits.
	cmd := exec.Command(rc.Bin, "serve", "--store", "embedded:"+rc.Dir, "--listen", addr, "--asset-index=false", "--rate-limit", "0", "--rate-limit-addr", "0")
	start := time.Now()
	serve, err := proc.Start(cmd)
	if err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	out := serve.Out
	stop := func() error {
		if err := serve.Stop(); err != nil {
			return fmt.Errorf("restart: dasch serve: %w", err)
		}
		return nil
	}
	defer stop()

	c := newRPCClient(addr, r.apiKey, 2)
	fig := &RestartFigures{Window: rc.Window, Factor: rc.Factor}
	first := warm.ids(0)[0]
	deadline := start.Add(rc.Timeout)
	for {
		err := c.getAsset(ctx, first, true)
		if err == nil {
			fig.FirstAnswer = time.Since(start)
			break
		}
		select {
		case <-serve.Done():
			return fmt.Errorf("restart: dasch serve exited (%v) before answering: %s", serve.Err(), out.String())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("restart: no getAsset answer within %s (last: %v): %s", rc.Timeout, err, out.String())
		}
	}
	rc.Progress("restart: first getAsset answered after %.2fs", fig.FirstAnswer.Seconds())

	// The answers after the first, each with the time it ended at.
	var lat, ends []time.Duration
	wb := rc.Warm
	for i := 1; i <= wb.Requests && (len(lat) < wb.MinRequests || time.Since(start) < fig.FirstAnswer+wb.Time); i++ {
		t := time.Now()
		if err := c.getAsset(ctx, warm.ids(i)[0], true); err != nil {
			return fmt.Errorf("restart: %w", err)
		}
		lat = append(lat, time.Since(t))
		ends = append(ends, time.Since(start))
	}
	fig.Warm = summary(lat)
	if n := len(ends); n > 0 && ends[n-1] > fig.FirstAnswer {
		fig.Warm.Throughput = float64(n) / (ends[n-1] - fig.FirstAnswer).Seconds()
	}
	if fig.Steady, err = sequential(ctx, rc.Steady, httpVia(c, steady)); err != nil {
		return fmt.Errorf("restart, steady state: %w", err)
	}
	fig.Memory, _ = benchjson.TreeMemory(cmd.Process.Pid)
	limit := time.Duration(rc.Factor * float64(fig.Steady.P99))
	if i, q, ok := fullSpeed(lat, rc.Window, limit); ok {
		fig.Reached, fig.FullSpeed, fig.WindowP99, fig.RequestsBefore = true, ends[i+rc.Window-1], q, i
	}
	r.Restart = fig
	if fig.Reached {
		rc.Progress("restart: full speed after %.2fs (%d answers in)", fig.FullSpeed.Seconds(), fig.RequestsBefore+rc.Window)
	} else {
		rc.Progress("restart: not at full speed within %d answers", len(lat))
	}
	return stop()
}

// fullSpeed finds the first window consecutive latencies whose p99 is
// within limit: the index of its first, and its p99.
func fullSpeed(lat []time.Duration, window int, limit time.Duration) (int, time.Duration, bool) {
	for i := 0; i+window <= len(lat); i++ {
		if q := summary(lat[i : i+window]).P99; q <= limit {
			return i, q, true
		}
	}
	return 0, 0, false
}

// summary is a series' percentiles over lat (left unsorted).
func summary(lat []time.Duration) Series {
	if len(lat) == 0 {
		return Series{}
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	q := func(p float64) time.Duration { return s[max(0, int(math.Ceil(p*float64(len(s))))-1)] }
	return Series{N: len(s), P50: q(0.50), P99: q(0.99), Clients: 1}
}
