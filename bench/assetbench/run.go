package assetbench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/api/das"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Config tunes a run. Zero values take the defaults noted.
type Config struct {
	Gen GenConfig
	// Parallel is the number of generate and decode workers. Default
	// GOMAXPROCS.
	Parallel int
	// RawRows bounds the raw insert reference. Default 1,000,000.
	RawRows int
	// BatchIDs is the number of ids per getAssetBatch. Default 100.
	BatchIDs int
	// Clients are the concurrent client counts. Default 16 and 64.
	Clients []int
	// Single bounds each one-id series (all kinds), PerKind each kind's,
	// Batch each batch series and Concurrent each concurrent one.
	Single, PerKind, Batch, Concurrent Budget
	// NoLists leaves out the listing series (getAssetsByOwner,
	// getAssetsByGroup, searchAssets) and the generator's skew they run on
	// (GenConfig.Skew).
	NoLists bool
	// List bounds each single-client listing series, ListConcurrent each
	// concurrent one, from ListClients clients (default 16).
	List, ListConcurrent Budget
	ListClients          int
	// SettleLimit bounds the wait for merges after the load. Default 5
	// minutes.
	SettleLimit time.Duration
	// Postgres loads the same assets into a PostgreSQL 15 in the Metaplex
	// reference's schema and measures its reads beside dasch's; without
	// it the PostgreSQL series stay empty.
	Postgres bool
	// PGBinDir overrides where the PostgreSQL binaries are.
	PGBinDir string
	// FoldProfile, when set, receives a CPU profile (pprof) of the fold.
	FoldProfile io.Writer
	// CacheMB, when positive, serves the second column ("index") with
	// dasch serve's document cache of that budget instead of the asset
	// index, which is then not loaded.
	CacheMB int64
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
}

func (c *Config) applyDefaults() {
	c.Gen.Skew = c.Gen.Skew || !c.NoLists
	c.Gen.applyDefaults()
	if c.Parallel <= 0 {
		c.Parallel = workers()
	}
	if c.RawRows <= 0 {
		c.RawRows = 1_000_000
	}
	if c.BatchIDs <= 0 {
		c.BatchIDs = 100
	}
	if c.Clients == nil {
		c.Clients = []int{16, 64}
	}
	if c.Single == (Budget{}) {
		c.Single = Budget{Warmup: 30, Requests: 2_000, Time: 6 * time.Second, MinRequests: 50}
	}
	if c.PerKind == (Budget{}) {
		c.PerKind = Budget{Warmup: 20, Requests: 1_000, Time: 3 * time.Second, MinRequests: 30}
	}
	if c.Batch == (Budget{}) {
		c.Batch = Budget{Warmup: 10, Requests: 500, Time: 6 * time.Second, MinRequests: 30}
	}
	if c.Concurrent == (Budget{}) {
		c.Concurrent = Budget{Warmup: 2, Requests: 50_000, Time: 8 * time.Second}
	}
	if c.List == (Budget{}) {
		c.List = Budget{Warmup: 3, Requests: 500, Time: 4 * time.Second, MinRequests: 20}
	}
	if c.ListConcurrent == (Budget{}) {
		c.ListConcurrent = Budget{Warmup: 1, Requests: 20_000, Time: 5 * time.Second}
	}
	if c.ListClients <= 0 {
		c.ListClients = 16
	}
	if c.SettleLimit <= 0 {
		c.SettleLimit = 5 * time.Minute
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
}

// Row is one request type answered five ways: over HTTP from the asset
// index (Indexed) and from the store (HTTP), by the query layer alone, by
// the store read alone, and by PostgreSQL with the reference's queries
// (PG).
type Row struct {
	Label                           string
	Indexed, HTTP, Query, Store, PG Series
	// Skip says why the row was not measured, if it was not.
	Skip string
}

// ConcRow is one request type from many clients over HTTP, from the
// asset index and from the store.
type ConcRow struct {
	Label         string
	Batch         bool
	Indexed, HTTP Series
}

// Report is everything one run measured.
type Report struct {
	Cfg        Config
	CPUs       int
	Elapsed    time.Duration
	LoadBefore string // 1-minute load average when the run started

	Counts          [NumKinds]int
	CoreCollections int

	Generate     time.Duration // outside the ingest clock
	Ingest       ingestFigures
	Events       int           // bubblegum_events rows of the compressed NFTs
	EventsInsert time.Duration // their insert
	Fold         time.Duration // the asset state step over everything loaded
	IndexLoad    time.Duration
	Index        hotindex.AssetStats
	// CacheMB and Cache are the document cache's budget and counts when
	// it served the second column (Config.CacheMB).
	CacheMB          int64
	Cache            assetcache.Stats
	RawRows          int
	Raw              time.Duration
	Settle           time.Duration
	Parts            int
	DiskBytes        int64
	Unserved         []Kind // kinds this build renders as not found
	Single, Batch    Row
	PerKind          []Row
	Concurrent       []ConcRow
	UnavailableKinds []Kind // kinds this build cannot generate
	// Lists are the listing series, unless Cfg.NoLists.
	Lists ListFigures
	// RequestLog is getAsset with the usage metering and request log on
	// and off, from the most clients of Cfg.Clients and from one.
	RequestLog RequestLogFigures

	// Postgres is set when the reference was loaded and measured.
	Postgres bool
	PG       PGFigures
	// Restart is the restart of `dasch serve` on the loaded store, when
	// measured (see MeasureRestart).
	Restart *RestartFigures
	// Started is when the run began; Memory is the processes' resident
	// memory when the reads were measured (benchjson's names: bench,
	// postgres, serve).
	Started time.Time
	Memory  map[string]benchjson.Memory

	// apiKey is the key the run created: a server restarted on the store
	// accepts it.
	apiKey string
}

// RawRowsPerSec is the engine's insert rate of the same rows.
func (r *Report) RawRowsPerSec() float64 { return float64(r.RawRows) / r.Raw.Seconds() }

// IngestAccountsPerSec is the end-to-end ingest rate.
func (r *Report) IngestAccountsPerSec() float64 {
	return float64(r.Ingest.Accounts) / r.Ingest.Load.Seconds()
}

// Run generates the assets, loads them into s (migrated and empty) through
// the asset ingest path and measures the read paths.
func Run(ctx context.Context, s arrowstore.Store, cfg Config) (*Report, error) {
	cfg.applyDefaults()
	began := time.Now()
	say := func(format string, a ...any) {
		fmt.Fprintf(cfg.Progress, "[%6.1fs] "+format+"\n", append([]any{time.Since(began).Seconds()}, a...)...)
	}
	rep := &Report{Cfg: cfg, CPUs: runtime.NumCPU(), LoadBefore: loadAvg(), Started: began, Memory: map[string]benchjson.Memory{}}
	p, err := NewPlan(cfg.Gen)
	if err != nil {
		return nil, err
	}
	for k := range NumKinds {
		rep.Counts[k] = len(p.ByKind[k])
		if !Available(k) {
			rep.UnavailableKinds = append(rep.UnavailableKinds, k)
		}
	}
	rep.CoreCollections = p.CoreCollections()
	if err := load(ctx, s, p, rep, say); err != nil {
		return nil, err
	}
	if rep.Unserved, err = probe(ctx, s, p); err != nil {
		return nil, err
	}
	for _, k := range rep.Unserved {
		say("%s: this build renders no generated %s (answers not found): left out of the measured mix", k, k)
	}
	var pc *pgx.Conn
	if cfg.Postgres {
		say("postgres: starting")
		pg, err := pgref.Start(ctx, pgref.Options{BinDir: cfg.PGBinDir, Settings: pgSettings()})
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := pg.Stop(); err != nil {
				say("postgres: %v", err)
			}
		}()
		for _, d := range pg.Removed {
			say("postgres: removed %s, left by a run whose process is gone", d)
		}
		say("postgres: loading %d assets in the reference's schema (COPY, %d streams)", p.Assets(), cfg.Parallel)
		if rep.PG, err = loadPostgres(ctx, pg.DSN(), s, p, cfg.Parallel); err != nil {
			return nil, err
		}
		rep.Postgres = true
		say("postgres: %d rows, COPY %.1fs, keys, indexes and analyze %.1fs", rep.PG.Rows, rep.PG.Load.Seconds(), rep.PG.Index.Seconds())
		conns, closeConns, err := pgConnect(ctx, pg.DSN(), 1, true)
		if err != nil {
			return nil, err
		}
		defer closeConns()
		pc = conns[0]
		defer benchjson.Sample(rep.Memory, "postgres", func() (benchjson.Memory, error) { return benchjson.TreeMemory(pg.PID()) })
	}
	// The index as `dasch serve` opens it, synced in the background, or
	// dasch serve's document cache in its place.
	var idx das.AssetIndex
	var cache *assetcache.Cache
	if cfg.CacheMB > 0 {
		cache = assetcache.New(cfg.CacheMB << 20)
		rep.CacheMB = cfg.CacheMB
		defer func() { rep.Cache = cache.Stats() }()
	} else {
		ictx, stopIndex := context.WithCancel(ctx)
		defer stopIndex()
		x, took, err := hotindex.OpenAssets(ictx, s, hotindex.DefaultAssetBudget, hotindex.DefaultSyncInterval, nil)
		if err != nil {
			return nil, err
		}
		idx = x
		rep.IndexLoad, rep.Index = took, x.Stats()
		say("asset index: %d entries, ~%d MiB, loaded in %.1fs", rep.Index.Entries, rep.Index.Bytes>>20, took.Seconds())
	}
	addr, key, stop, err := startServer(ctx, s, nil, nil, say)
	if err != nil {
		return nil, err
	}
	defer stop()
	iaddr, ikey, istop, err := startServer(ctx, s, idx, cache, say)
	if err != nil {
		return nil, err
	}
	defer istop()
	rep.apiKey = key
	say("dasch: serving JSON-RPC on %s (store) and %s (asset index)", addr, iaddr)
	conns := slices.Max(append([]int{1, cfg.ListClients}, cfg.Clients...)) + 8
	m := &measurer{cfg: cfg, p: p, rep: rep, say: say,
		ps: paths{s: s, rpc: newRPCClient(addr, key, conns), indexed: newRPCClient(iaddr, ikey, conns), pg: pc,
			pgBatch: newPGBatchSQL(cfg.BatchIDs)}}
	if err := m.all(ctx); err != nil {
		return nil, err
	}
	benchjson.Sample(rep.Memory, "bench", benchjson.SelfMemory)
	rep.Elapsed = time.Since(began)
	say("done")
	return rep, nil
}

// load generates the state, measures the raw insert reference and ingests
// the state, then waits for merges.
func load(ctx context.Context, s arrowstore.Store, p *Plan, rep *Report, say func(string, ...any)) error {
	cfg := rep.Cfg
	say("generating %d assets (%d workers)", p.Assets(), cfg.Parallel)
	start := time.Now()
	chunks, err := generate(ctx, p, cfg.Parallel)
	if err != nil {
		return err
	}
	rep.Generate = time.Since(start)
	say("generated in %.1fs; raw insert reference, up to %d rows", rep.Generate.Seconds(), cfg.RawRows)
	if rep.RawRows, rep.Raw, err = rawInsert(ctx, s, chunks, cfg.RawRows); err != nil {
		return err
	}
	say("raw insert: %d rows in %.1fs; ingesting", rep.RawRows, rep.Raw.Seconds())
	if rep.Ingest, err = ingestChunks(ctx, s, chunks, cfg.Parallel); err != nil {
		return err
	}
	chunks = nil
	say("ingest: %d accounts in %.1fs; compressed NFT events", rep.Ingest.Accounts, rep.Ingest.Load.Seconds())
	start = time.Now()
	if rep.Events, err = insertEvents(ctx, s, p); err != nil {
		return err
	}
	rep.EventsInsert = time.Since(start)
	say("events: %d rows in %.1fs; folding asset state", rep.Events, rep.EventsInsert.Seconds())
	if cfg.FoldProfile != nil {
		if err := pprof.StartCPUProfile(cfg.FoldProfile); err != nil {
			return fmt.Errorf("fold profile: %w", err)
		}
	}
	start = time.Now()
	// A store loaded without the step is folded whole by its first range.
	err = assetstate.NewFoldStep().Apply(ctx, s, math.MaxUint64, math.MaxUint64)
	rep.Fold = time.Since(start)
	if cfg.FoldProfile != nil {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	// The API answers with the indexed slot, and nothing past it: the
	// newest slot folded (some generated rows come after the last asset's).
	last, err := newestFolded(ctx, s)
	if err != nil {
		return err
	}
	if err := checkpoint.Write(ctx, s, max(last, slot(max(0, p.Assets()-1)))); err != nil {
		return err
	}
	say("fold: %d assets in %.1fs; waiting for merges", p.Assets(), rep.Fold.Seconds())
	if rep.Settle, rep.Parts, err = settle(ctx, s, cfg.SettleLimit); err != nil {
		return err
	}
	if rep.DiskBytes, err = diskBytes(ctx, s); err != nil {
		return err
	}
	say("merges settled after %.1fs, %d parts", rep.Settle.Seconds(), rep.Parts)
	return nil
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// EnvAssets scales the benchmark without a flag, e.g. for `make bench`.
const EnvAssets = "DASCH_BENCH_ASSETS"

// AssetsFromEnv returns $DASCH_BENCH_ASSETS, or def when it is unset.
func AssetsFromEnv(def int) (int, error) {
	v := os.Getenv(EnvAssets)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive number of assets", EnvAssets, v)
	}
	return n, nil
}

// newestFolded is the newest slot an asset document was folded at.
func newestFolded(ctx context.Context, s arrowstore.Store) (uint64, error) {
	res, err := s.Query(ctx, `SELECT max(slot) FROM `+schema.TableAssetDocs, nil)
	if err != nil {
		return 0, fmt.Errorf("newest folded slot: %w", err)
	}
	r := res.Row(0)
	n := r.U64(0)
	if err := r.Err(); err != nil {
		return 0, fmt.Errorf("newest folded slot: %w", err)
	}
	return n, nil
}
