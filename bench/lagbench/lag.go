// Package lagbench measures how long an account update takes to show in
// getAsset when `dasch serve --ingest grpc:URL` follows a Yellowstone
// stream: a loopback Geyser server sends slots on a schedule (a
// mainnet-like mix of token-program and metadata writes at a set rate),
// and pollers watch a few NFTs whose owner changes in every slot. The lag
// is from the moment a slot starts going out to the first getAsset
// answer that shows the new owner: the stream, decoding, batching, the
// insert, the checkpoint, the asset fold and the serving cache.
package lagbench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/internal/proc"
	"github.com/dasch-labs/dasch/bench/internal/rpc"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config is one run.
type Config struct {
	// Bin is the dasch binary; Dir an empty directory for the store.
	Bin, Dir string
	// OpenStore opens (and migrates) the store at url for the key the
	// server is asked with; the run closes it before starting the server.
	OpenStore func(ctx context.Context, url string) (arrowstore.Store, func(), error)
	// The starting state: NFTs, fungible mints, and token accounts of
	// those mints (Holders).
	NFTs, Mints, Holders int
	// Rates are the account writes per second of each phase, one after
	// the other; Phase is each phase's length and SlotTime a slot's.
	Rates    []int
	Phase    time.Duration
	SlotTime time.Duration
	// Probes is how many NFTs change owner in every slot, each watched
	// by its own poller; Poll is a poller's pause between answers.
	Probes int
	Poll   time.Duration
	// Drain bounds the wait, after a phase's last slot, for its probes.
	Drain time.Duration
	// ServeArgs are added to the server's command line.
	ServeArgs []string
	Seed      uint64
	// Progress receives a line per step; nil discards them.
	Progress func(format string, a ...any)
}

func (c *Config) applyDefaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.NFTs, 20_000)
	def(&c.Mints, 1_000)
	def(&c.Holders, 20_000)
	def(&c.Probes, 4)
	if len(c.Rates) == 0 {
		c.Rates = []int{MainnetRate, 10 * MainnetRate}
	}
	if c.Phase <= 0 {
		c.Phase = 30 * time.Second
	}
	if c.SlotTime <= 0 {
		c.SlotTime = 400 * time.Millisecond
	}
	if c.Poll <= 0 {
		c.Poll = 2 * time.Millisecond
	}
	if c.Drain <= 0 {
		c.Drain = time.Minute
	}
	if c.Progress == nil {
		c.Progress = func(string, ...any) {}
	}
}

// MainnetRate is the account writes per second to the asset programs the
// run takes as mainnet's: about a thousand non-vote transactions a second,
// most of them swaps and transfers writing about three token accounts.
const MainnetRate = 3_000

// Phase is the figures of one rate.
type Phase struct {
	Rate, Slots, Writes int
	// Lag is each probe's lag; Seen how many probes were seen before the
	// drain ran out (of Probes × Slots).
	Lag        Lag
	Seen, Want int
	// Kept is the write rate the server kept up with: the phase's writes
	// over the time from its first slot's sending to its last probe's
	// showing.
	Kept   float64
	Memory benchjson.Memory
}

// Lag is a distribution of lags.
type Lag struct {
	N                  int
	P50, P90, P99, Max time.Duration
	Mean               time.Duration
}

// Report is a run.
type Report struct {
	Cfg Config
	// Preload is the starting state's accounts and the time from the
	// server's start until all of them answered.
	PreloadAccounts int
	Preload         time.Duration
	Phases          []Phase
}

// Run measures each rate of cfg in turn.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.applyDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Bin == "" || cfg.Dir == "" || cfg.OpenStore == nil {
		return nil, errors.New("lag bench: the dasch binary, a directory and OpenStore are needed")
	}
	rep := &Report{Cfg: cfg}
	url := "embedded:" + cfg.Dir
	key, err := makeKey(ctx, cfg, url)
	if err != nil {
		return nil, err
	}

	// The script: the preload, then each phase's paced slots.
	g := &gen{cfg: &cfg, r: rand.New(rand.NewPCG(cfg.Seed, 7))}
	const first = 1_000_000
	slots, n, err := g.preload(first, 5_000)
	if err != nil {
		return nil, err
	}
	rep.PreloadAccounts = n
	lastPreload := slots[len(slots)-1].Slot
	perPhase := int(cfg.Phase / cfg.SlotTime)
	pacedFirst := lastPreload + 1
	for p, rate := range cfg.Rates {
		writes := max(cfg.Probes, int(float64(rate)*cfg.SlotTime.Seconds()))
		for i := range perPhase {
			k := p*perPhase + i
			slots = append(slots, g.paced(pacedFirst+uint64(k), k, writes))
		}
		rep.Phases = append(rep.Phases, Phase{Rate: rate, Slots: perPhase, Want: perPhase * cfg.Probes})
		for _, sl := range slots[len(slots)-perPhase:] {
			rep.Phases[p].Writes += len(sl.Accounts)
		}
	}
	pace := newPacer(pacedFirst, len(cfg.Rates), perPhase, cfg.SlotTime)
	srv, err := geysertest.Serve(geysertest.Script{Slots: slots, Pace: pace.pace})
	if err != nil {
		return nil, err
	}
	defer srv.Stop()

	addr, err := proc.FreeAddr()
	if err != nil {
		return nil, fmt.Errorf("lag bench: %w", err)
	}
	// The probes poll faster than the default rations allow: the suite
	// measures the server, not its rate limits.
	args := append([]string{"serve", "--store", url, "--listen", addr, "--ingest", "grpc:" + srv.URL,
		"--from", strconv.FormatUint(first, 10), "--metadata-fetch", "off", "--rate-limit", "0", "--rate-limit-addr", "0"}, cfg.ServeArgs...)
	cfg.Progress("lag: dasch %v", args)
	start := time.Now()
	serve, err := proc.Start(exec.Command(cfg.Bin, args...))
	if err != nil {
		return nil, fmt.Errorf("lag bench: %w", err)
	}
	out := serve.Out
	defer serve.Stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-serve.Done():
			cfg.Progress("lag: dasch serve exited (%v): %s", serve.Err(), out.String())
			cancel()
		case <-ctx.Done():
		}
	}()

	c := rpc.New(addr, key, cfg.Probes+1)
	// The preload is in when the last NFT answers with its first owner.
	lastNFT := cfg.NFTs - 1
	want := wallet(uint64(lastNFT))
	for {
		if o, err := owner(ctx, c, nftMint(lastNFT)); err == nil && o == want {
			break
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return nil, fmt.Errorf("lag bench: waiting for the preload: %w (server output: %s)", err, out.String())
		}
	}
	rep.Preload = time.Since(start)
	cfg.Progress("lag: %d preloaded accounts answer after %.1fs", rep.PreloadAccounts, rep.Preload.Seconds())

	for p := range rep.Phases {
		ph := &rep.Phases[p]
		cfg.Progress("lag: phase %d: %d writes/s, %d slots of %d writes", p+1, ph.Rate, ph.Slots, ph.Writes/ph.Slots)
		pace.begin(p)
		lags, last, err := watch(ctx, c, cfg, pace, p*perPhase, (p+1)*perPhase)
		if err != nil {
			return nil, err
		}
		ph.Lag = summarise(lags)
		ph.Seen = len(lags)
		if d := last.Sub(pace.sentAt(p * perPhase)); d > 0 {
			ph.Kept = float64(ph.Writes) / d.Seconds()
		}
		ph.Memory, _ = benchjson.TreeMemory(serve.Cmd.Process.Pid)
		cfg.Progress("lag: phase %d: %d of %d probes, lag p50 %s p99 %s max %s; kept up with %.0f writes/s",
			p+1, ph.Seen, ph.Want, ph.Lag.P50, ph.Lag.P99, ph.Lag.Max, ph.Kept)
	}
	return rep, nil
}

// makeKey creates the run's API key in the new store and closes it.
func makeKey(ctx context.Context, cfg Config, url string) (string, error) {
	s, closeStore, err := cfg.OpenStore(ctx, url)
	if err != nil {
		return "", err
	}
	defer closeStore()
	key, _, err := auth.CreateKey(ctx, s, "lag bench")
	if err != nil {
		return "", fmt.Errorf("lag bench: api key: %w", err)
	}
	return key, nil
}

// pacer holds paced slots to their schedule: phase p starts when run
// releases it, and its i-th slot goes out i slot times after that.
type pacer struct {
	first    uint64
	perPhase int
	slotTime time.Duration
	release  []chan struct{}
	start    []time.Time // set before release
	sent     []atomic.Int64
}

func newPacer(first uint64, phases, perPhase int, slotTime time.Duration) *pacer {
	p := &pacer{first: first, perPhase: perPhase, slotTime: slotTime,
		release: make([]chan struct{}, phases), start: make([]time.Time, phases), sent: make([]atomic.Int64, phases*perPhase)}
	for i := range p.release {
		p.release[i] = make(chan struct{})
	}
	return p
}

// pace is the server's Script.Pace.
func (p *pacer) pace(ctx context.Context, slot uint64) error {
	if slot < p.first {
		return nil
	}
	k := int(slot - p.first)
	if k >= len(p.sent) {
		return nil
	}
	phase := k / p.perPhase
	select {
	case <-p.release[phase]:
	case <-ctx.Done():
		return ctx.Err()
	}
	at := p.start[phase].Add(time.Duration(k%p.perPhase) * p.slotTime)
	if err := sleep(ctx, time.Until(at)); err != nil {
		return err
	}
	p.sent[k].CompareAndSwap(0, time.Now().UnixNano())
	return nil
}

// sentAt is when paced slot k started going out, zero before.
func (p *pacer) sentAt(k int) time.Time {
	if ns := p.sent[k].Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// begin releases phase's slots, from now.
func (p *pacer) begin(phase int) {
	p.start[phase] = time.Now()
	close(p.release[phase])
}

// watch polls each probe NFT until it shows the owner of paced slot to-1
// or the drain runs out, and returns every probe's lag in [from, to) and
// when the last was seen. A probe seen only through a later slot's owner
// gets that sighting's time: the state between two polls is not seen.
func watch(ctx context.Context, c *rpc.Client, cfg Config, pace *pacer, from, to int) ([]time.Duration, time.Time, error) {
	var (
		mu   sync.Mutex
		lags []time.Duration
		last time.Time
	)
	deadline := pace.start[from/pace.perPhase].Add(time.Duration(to-from)*pace.slotTime + cfg.Drain)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	errs := make(chan error, cfg.Probes)
	var wg sync.WaitGroup
	for j := range cfg.Probes {
		owners := make(map[solana.Pubkey]int, to-from)
		for k := from; k < to; k++ {
			owners[probeOwner(k, j)] = k
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := from // the first probe slot not seen yet
			for next < to {
				o, err := owner(ctx, c, nftMint(j))
				seen := time.Now()
				if ctx.Err() != nil {
					return
				}
				if err != nil {
					errs <- fmt.Errorf("lag bench: getAsset of probe %d: %w", j, err)
					cancel()
					return
				}
				if k, ok := owners[o]; ok && k >= next {
					mu.Lock()
					for ; next <= k; next++ {
						if s := pace.sentAt(next); !s.IsZero() {
							lags = append(lags, seen.Sub(s))
						}
					}
					if seen.After(last) {
						last = seen
					}
					mu.Unlock()
				}
				if err := sleep(ctx, cfg.Poll); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, last, err
	}
	return lags, last, nil
}

// owner is the owner getAsset shows for id.
func owner(ctx context.Context, c *rpc.Client, id solana.Pubkey) (solana.Pubkey, error) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":"` + id.String() + `"}}`)
	b, err := c.Post(ctx, body)
	if err != nil {
		return solana.Pubkey{}, err
	}
	var resp struct {
		Result struct {
			Ownership struct {
				Owner string `json:"owner"`
			} `json:"ownership"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		return solana.Pubkey{}, fmt.Errorf("getAsset answer: %w", err)
	}
	return solana.ParsePubkey(resp.Result.Ownership.Owner)
}

func summarise(lat []time.Duration) Lag {
	if len(lat) == 0 {
		return Lag{}
	}
	lat = slices.Clone(lat)
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[max(0, int(math.Ceil(p*float64(len(lat))))-1)] }
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	return Lag{N: len(lat), P50: q(0.5), P90: q(0.9), P99: q(0.99), Max: lat[len(lat)-1], Mean: sum / time.Duration(len(lat))}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
