// Package soakbench is the soak suite: a seeded hostile barrage beside
// paced legitimate clients against `dasch serve` on the demo data, with
// a memory limit on the server where the machine lets one be set. It
// reports the legitimate latency before and during the barrage, how the
// hostile requests were answered, and whether the server held.
package soakbench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/internal/proc"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config is one soak run.
type Config struct {
	// Bin is the dasch binary; Dir a directory of the run's own.
	Bin, Dir string
	// Demo are the directories of files ingested first.
	Demo []string
	// OpenStore opens the run's store before the server takes it.
	OpenStore func(ctx context.Context, url string) (arrowstore.Store, func(), error)
	// Quiet is the legitimate clients' phase alone; Soak the phase with
	// the barrage beside them.
	Quiet, Soak time.Duration
	// Clients legitimate clients send Rate requests a second each.
	Clients int
	Rate    float64
	// Hostile goroutines send the barrage, each as fast as it is answered.
	Hostile int
	// MemoryMiB limits the server's memory (a cgroup), 0 for none.
	MemoryMiB int
	Seed      uint64
	// ServeArgs are added to `dasch serve`'s.
	ServeArgs []string
	Progress  func(format string, a ...any)
}

func (c *Config) applyDefaults() {
	if c.Quiet <= 0 {
		c.Quiet = 20 * time.Second
	}
	if c.Soak <= 0 {
		c.Soak = 60 * time.Second
	}
	if c.Clients <= 0 {
		c.Clients = 64
	}
	if c.Rate <= 0 {
		c.Rate = 10
	}
	if c.Hostile <= 0 {
		c.Hostile = 8
	}
	if c.Progress == nil {
		c.Progress = func(string, ...any) {}
	}
}

// Latency is a distribution of legitimate answers' times.
type Latency struct {
	N, Failed     int
	P50, P99, Max time.Duration
	PerS          float64
	// Errors are the first few failures' texts.
	Errors []string
}

// Report is a run.
type Report struct {
	Cfg          Config
	Quiet, Soak  Latency
	HostileSent  int
	HostilePerS  float64
	ByKind       map[string]int // hostile requests sent, by kind
	NoAnswer     map[string]int // of them, those without an answer
	ByStatus     map[int]int    // hostile answers, by HTTP status
	Internal     int            // answers with -32603 or HTTP 500
	Transport    int            // hostile requests with no answer at all
	Exited       bool           // the server exited during the run
	HealthAfter  int            // /health's status after the barrage
	Limited      string         // the memory limit set, or why none
	PeakMemory   int64          // the cgroup's peak usage, bytes, when limited
	LimitHits    int64          // times the cgroup refused memory
	ServerMemory benchjson.Memory
}

// Held reports whether the server passed: no internal error, still up
// and healthy, and the legitimate clients answered throughout.
func (r *Report) Held() bool {
	return r.Internal == 0 && !r.Exited && r.HealthAfter == http.StatusOK && r.Soak.Failed == 0 && r.Quiet.Failed == 0
}

// Run runs the suite.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.applyDefaults()
	if cfg.Bin == "" || cfg.Dir == "" || len(cfg.Demo) == 0 || cfg.OpenStore == nil {
		return nil, errors.New("soak bench: the dasch binary, a directory, the demo data and OpenStore are needed")
	}
	url := "embedded:" + cfg.Dir + "/data"
	for _, dir := range cfg.Demo {
		ingest := exec.CommandContext(ctx, cfg.Bin, "ingest", "--store", url, "--source", "files:"+dir, "--metadata-fetch", "off")
		if out, err := ingest.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("soak bench: ingest %s: %w: %s", dir, err, out)
		}
	}
	w, err := prepare(ctx, cfg, url)
	if err != nil {
		return nil, err
	}
	addr, err := proc.FreeAddr()
	if err != nil {
		return nil, fmt.Errorf("soak bench: %w", err)
	}
	// The per-address ration would refuse the legitimate clients too:
	// every client here has the loopback address.
	args := append([]string{"serve", "--store", url, "--listen", addr, "--rate-limit-addr", "0"}, cfg.ServeArgs...)
	cfg.Progress("soak: dasch %s", strings.Join(args, " "))
	rep := &Report{Cfg: cfg, ByKind: map[string]int{}, NoAnswer: map[string]int{}, ByStatus: map[int]int{}}
	cmd := exec.Command(cfg.Bin, args...)
	var cg *cgroup
	rep.Limited = "none"
	if cfg.MemoryMiB > 0 {
		if cg, err = newCgroup(int64(cfg.MemoryMiB) << 20); err != nil {
			rep.Limited = "none: " + err.Error()
		} else {
			rep.Limited = fmt.Sprintf("%d MiB (cgroup v1 memory)", cfg.MemoryMiB)
			defer cg.remove()
			cmd = cg.command(cfg.Bin, args...)
		}
	}
	serve, err := proc.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("soak bench: %w", err)
	}
	defer serve.Stop()
	base := "http://" + addr
	if err := waitHealthy(ctx, base, serve); err != nil {
		return nil, err
	}

	cfg.Progress("soak: quiet phase, %d clients at %.0f requests/s each, %s", cfg.Clients, cfg.Rate, cfg.Quiet)
	rep.Quiet = legit(ctx, cfg, addr, w, cfg.Quiet)
	cfg.Progress("soak: quiet p50 %s p99 %s (%d answers, %d failed)", rep.Quiet.P50, rep.Quiet.P99, rep.Quiet.N, rep.Quiet.Failed)

	cfg.Progress("soak: barrage of %d hostile senders beside them, %s", cfg.Hostile, cfg.Soak)
	sctx, stop := context.WithTimeout(ctx, cfg.Soak)
	defer stop()
	p := newPayloads(w)
	var hmu sync.Mutex
	var wg sync.WaitGroup
	started := time.Now()
	for i := range cfg.Hostile {
		wg.Go(func() {
			h := newHostile(w, p, rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1)))
			hc := &http.Client{Timeout: 30 * time.Second}
			for sctx.Err() == nil {
				kind, status, internal := h.send(sctx, hc, base)
				if sctx.Err() != nil && status == 0 {
					break
				}
				hmu.Lock()
				rep.HostileSent++
				rep.ByKind[kind]++
				if status == 0 {
					rep.Transport++
					rep.NoAnswer[kind]++
				} else {
					rep.ByStatus[status]++
				}
				if internal {
					rep.Internal++
				}
				hmu.Unlock()
			}
		})
	}
	rep.Soak = legit(sctx, cfg, addr, w, cfg.Soak)
	wg.Wait()
	rep.HostilePerS = float64(rep.HostileSent) / time.Since(started).Seconds()
	if rep.Exited = serve.Exited(); rep.Exited {
		cfg.Progress("soak: dasch serve exited during the barrage (%v): %s", serve.Err(), serve.Out)
	} else {
		rep.ServerMemory, _ = benchjson.TreeMemory(serve.Cmd.Process.Pid)
	}
	rep.HealthAfter = health(ctx, base)
	if cg != nil {
		rep.PeakMemory, rep.LimitHits = cg.peak()
	}
	cfg.Progress("soak: barrage p50 %s p99 %s (%d answers, %d failed); %d hostile requests, %d internal errors",
		rep.Soak.P50, rep.Soak.P99, rep.Soak.N, rep.Soak.Failed, rep.HostileSent, rep.Internal)
	return rep, nil
}

// world is what the requests name: real ids and owners of the demo
// data, and the run's keys.
type world struct {
	legitKey, hostileKey string
	assets, owners       []string
	compressedOwners     []string
}

// prepare creates the keys and reads the ids the requests name.
func prepare(ctx context.Context, cfg Config, url string) (*world, error) {
	s, closeStore, err := cfg.OpenStore(ctx, url)
	if err != nil {
		return nil, err
	}
	defer closeStore()
	w := &world{}
	if w.legitKey, _, err = auth.CreateKey(ctx, s, "soak legit"); err != nil {
		return nil, fmt.Errorf("soak bench: api key: %w", err)
	}
	if w.hostileKey, _, err = auth.CreateKey(ctx, s, "soak hostile"); err != nil {
		return nil, fmt.Errorf("soak bench: api key: %w", err)
	}
	for _, q := range []struct {
		sql  string
		into *[]string
	}{
		{`SELECT base58Encode(id) FROM asset_state FINAL WHERE status = '' ORDER BY id LIMIT 100`, &w.assets},
		{`SELECT DISTINCT base58Encode(key) FROM asset_keys FINAL WHERE path = 'owner' AND NOT is_deleted ORDER BY 1 LIMIT 50`, &w.owners},
		{`SELECT DISTINCT base58Encode(owner) FROM token_balances FINAL ORDER BY 1 LIMIT 20`, &w.compressedOwners},
	} {
		res, err := s.Query(ctx, q.sql, nil)
		if err != nil {
			return nil, fmt.Errorf("soak bench: read the demo ids: %w", err)
		}
		for _, r := range res.Rows {
			*q.into = append(*q.into, r[0].(string))
		}
	}
	if len(w.assets) == 0 || len(w.owners) == 0 || len(w.compressedOwners) == 0 {
		return nil, fmt.Errorf("soak bench: the demo data has %d assets, %d owners, %d compressed owners: want some of each",
			len(w.assets), len(w.owners), len(w.compressedOwners))
	}
	return w, nil
}

func waitHealthy(ctx context.Context, base string, serve *proc.Proc) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if serve.Exited() {
			return fmt.Errorf("soak bench: dasch serve exited (%v): %s", serve.Err(), serve.Out)
		}
		if health(ctx, base) == http.StatusOK {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("soak bench: dasch serve not healthy after 2 minutes: %s", serve.Out)
}

func health(ctx context.Context, base string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/health", nil)
	if err != nil {
		return 0
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func summarise(lat []time.Duration, failed int, errs []string, d time.Duration) Latency {
	l := Latency{N: len(lat), Failed: failed, Errors: errs}
	if d > 0 {
		l.PerS = float64(len(lat)) / d.Seconds()
	}
	if len(lat) == 0 {
		return l
	}
	slices.Sort(lat)
	at := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	l.P50, l.P99, l.Max = at(0.50), at(0.99), lat[len(lat)-1]
	return l
}
