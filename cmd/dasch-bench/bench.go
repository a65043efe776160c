package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/bench"
	"github.com/dasch-labs/dasch/bench/assetbench"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/compressedbench"
	"github.com/dasch-labs/dasch/bench/lagbench"
	"github.com/dasch-labs/dasch/bench/metabench"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/bench/soakbench"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chdb"
	"github.com/dasch-labs/dasch/store/chserver"
)

func runBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench")
	suite := fs.String("suite", "insert", "insert: the store's insert limit vs the pipeline; compressed: compressed-state reads and ingest vs PostgreSQL; assets: getAsset/getAssetBatch latency and asset ingest; lag: an account update's time to getAsset while serve follows a gRPC stream; metadata: off-chain document fetch throughput and ingest beside it; soak: a hostile barrage beside paced legitimate clients, under a memory limit")
	url := fs.String("store", "", "store URL (default: a fresh embedded store in a temporary directory)")
	rows := fs.Int("rows", 1_000_000, "insert suite: synthetic accounts to insert")
	batch := fs.Int("batch", 50_000, "insert suite: rows per Arrow batch")
	defAccounts, err := compressedbench.AccountsFromEnv(compressedbench.DefaultAccounts)
	if err != nil {
		return usagef("%v", err)
	}
	accounts := fs.Int("accounts", defAccounts, "compressed suite: token accounts to generate (env "+compressedbench.EnvAccounts+")")
	mints := fs.Int("mints", compressedbench.DefaultMints, "compressed suite: mints")
	seed := fs.Uint64("seed", 1, "compressed suite: generator seed")
	clients := fs.Int("clients", 64, "compressed suite: concurrent clients")
	chunk := fs.Int("chunk", compressedbench.DefaultChunkAccounts, "compressed suite: token accounts per chunk, one record per table (dasch ingest's default batch is 50,000 rows)")
	partChunks := fs.Int("part-chunks", compressedbench.DefaultPartChunks, "compressed suite: chunks per part, one INSERT per table committed every that many chunks (1: a part per chunk)")
	transfers := fs.Int("transfers", 0, "compressed suite: transfers ingested after the pages, each spending a stored account and creating two (0: 1% of --accounts, at most 50,000; negative: none)")
	liveSlots := fs.Int("live-slots", 0, "compressed suite: slots of 100 transfers ingested one at a time after the transfers, with the state step's balance copy and scanning token_balances (0: 20; negative: none)")
	cacheMB := fs.Int64("asset-cache-mb", 0, "assets suite: serve the second column with dasch serve's document cache of this many MiB instead of the asset index (0: the index)")
	profile := fs.String("ingest-profile", "", "compressed suite: write a CPU profile (pprof) of the end-to-end ingest to this file; assets suite: of the asset state fold")
	withPG := fs.Bool("postgres", true, "compressed and assets suites: load and query the PostgreSQL 15 reference (assets suite: by default only when PostgreSQL is installed)")
	pgBin := fs.String("pg-bin", "", "compressed and assets suites: directory of initdb and postgres (default: "+pgref.DefaultBinDir+")")
	defAssets, err := assetbench.AssetsFromEnv(assetbench.DefaultAssets)
	if err != nil {
		return usagef("%v", err)
	}
	nAssets := fs.Int("assets", defAssets, "assets suite: digital assets to generate (env "+assetbench.EnvAssets+")")
	lists := fs.Bool("lists", true, "assets suite: skew the generated owners, collections, creators and authorities and measure getAssetsByOwner, getAssetsByGroup and searchAssets pages beside PostgreSQL")
	restart := fs.Bool("restart", true, "assets suite: time a restart of `dasch serve --asset-index=false` on the loaded store (needs the dasch binary)")
	daschBin := fs.String("dasch-bin", "", "assets, lag and soak suites: the dasch binary the restart and the lag suite run (default: beside dasch-bench, else on PATH)")
	hot := fs.Bool("hot-index", true, "compressed suite: serve holders and balances from the in-memory index, as `dasch serve` does by default (false: from the store)")
	quick := fs.Bool("quick", false, "compressed and assets suites: tiny request budgets, for smoke runs and tests (figures not comparable with full runs)")
	rate := fs.Int("rate", lagbench.MainnetRate, "lag suite: the first phase's account writes per second (the next phases multiply it by --rate-factor)")
	rateFactors := fs.String("rate-factor", "10", "lag suite: comma-separated multiples of --rate for the next phases")
	phase := fs.Duration("phase", 30*time.Second, "lag suite: each phase's length")
	metaAssets := fs.Int("metadata-assets", 10_000, "metadata suite: assets ingested per phase, each naming a document of its own")
	metaLatency := fs.Duration("metadata-latency", 20*time.Millisecond, "metadata suite: the document server's latency")
	metaErrors := fs.Float64("metadata-errors", 0.05, "metadata suite: share of requests the document server fails with a 500")
	metaInFlight := fs.Int("metadata-in-flight", 64, "metadata suite: documents fetched at once")
	soakQuiet := fs.Duration("soak-quiet", 20*time.Second, "soak suite: the legitimate clients' phase alone")
	soakFor := fs.Duration("soak-duration", 60*time.Second, "soak suite: the barrage's phase")
	soakClients := fs.Int("soak-clients", 64, "soak suite: legitimate clients, each at --soak-rate")
	soakRate := fs.Float64("soak-rate", 10, "soak suite: each legitimate client's requests per second")
	soakHostile := fs.Int("soak-hostile", 8, "soak suite: hostile senders, each as fast as it is answered")
	soakMem := fs.Int("soak-memory-mb", 1024, "soak suite: the server's memory limit (a cgroup v1 memory group where one can be made; 0: none)")
	demo := fs.String("demo", "testdata/demo,testdata/das/accounts", "soak suite: directories of files ingested before the run, comma-separated")
	jsonOut := fs.String("json", "", "every suite: also write the run as one JSON object to this file (docs/performance.md, \"Bench JSON\")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *suite {
	case "insert":
		if *rows <= 0 {
			return usagef("--rows must be positive")
		}
		return benchInsert(ctx, e, *url, *rows, *batch, *jsonOut)
	case "compressed":
		if *accounts <= 0 || *mints <= 0 || *clients <= 0 || *chunk <= 0 || *partChunks <= 0 {
			return usagef("--accounts, --mints, --clients, --part-chunks and --chunk must be positive")
		}
		cfg := compressedbench.Config{
			Gen:           compressedbench.GenConfig{Accounts: *accounts, Mints: *mints, Seed: *seed},
			ChunkAccounts: *chunk,
			PartChunks:    *partChunks,
			Transfers:     *transfers,
			LiveSlots:     *liveSlots,
			Clients:       *clients,
			Postgres:      *withPG,
			PGBinDir:      *pgBin,
			NoHotIndex:    !*hot,
			Progress:      e.stderr,
		}
		if *quick {
			tiny := compressedbench.Budget{Warmup: 1, Requests: 5, Time: time.Second, MinRequests: 1}
			cfg.Pages, cfg.Concurrent = tiny, compressedbench.Budget{Warmup: 1, Requests: 200, Time: 2 * time.Second}
			cfg.NarrowRows, cfg.SettleLimit = 200_000, 30*time.Second
		}
		if *profile != "" {
			f, err := os.Create(*profile)
			if err != nil {
				return fmt.Errorf("ingest profile: %w", err)
			}
			defer f.Close()
			cfg.IngestProfile = f
		}
		return benchCompressed(ctx, e, *url, cfg, *jsonOut)
	case "assets":
		if *nAssets <= 0 {
			return usagef("--assets must be positive")
		}
		cfg := assetbench.Config{Gen: assetbench.GenConfig{Assets: *nAssets, Seed: *seed}, Progress: e.stderr,
			Postgres: *withPG, PGBinDir: *pgBin, NoLists: !*lists}
		if !flagSet(fs, "postgres") && *pgBin == "" {
			_, err := pgref.FindBinDir()
			cfg.Postgres = err == nil
		}
		cfg.CacheMB = *cacheMB
		if *profile != "" {
			f, err := os.Create(*profile)
			if err != nil {
				return fmt.Errorf("fold profile: %w", err)
			}
			defer f.Close()
			cfg.FoldProfile = f
		}
		var rc assetbench.RestartConfig
		if *quick {
			tiny := assetbench.Budget{Warmup: 2, Requests: 5, Time: time.Second, MinRequests: 1}
			cfg.RawRows, cfg.Clients, cfg.SettleLimit = 2_000, []int{4}, 10*time.Second
			cfg.Single, cfg.PerKind, cfg.Batch = tiny, tiny, tiny
			cfg.Concurrent = assetbench.Budget{Warmup: 1, Requests: 40, Time: time.Second}
			cfg.List, cfg.ListConcurrent, cfg.ListClients = tiny, cfg.Concurrent, 4
			rc.Warm = assetbench.Budget{Requests: 300, Time: 3 * time.Second}
			rc.Steady = assetbench.Budget{Requests: 200, Time: 2 * time.Second, MinRequests: 100}
		}
		if *restart {
			if rc.Bin, err = findDasch(*daschBin); err != nil {
				return err
			}
		}
		return benchAssets(ctx, e, *url, cfg, rc, *jsonOut)
	case "lag":
		cfg := lagbench.Config{Rates: []int{*rate}, Phase: *phase, Seed: *seed}
		for _, f := range strings.Split(*rateFactors, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				return usagef("--rate-factor takes positive integers, not %q", f)
			}
			cfg.Rates = append(cfg.Rates, n**rate)
		}
		if *rate <= 0 || *phase <= 0 {
			return usagef("--rate and --phase must be positive")
		}
		if *quick {
			cfg.NFTs, cfg.Mints, cfg.Holders, cfg.Drain = 200, 20, 200, 30*time.Second
			if !flagSet(fs, "phase") {
				cfg.Phase = 2 * time.Second
			}
		}
		var err error
		if cfg.Bin, err = findDasch(*daschBin); err != nil {
			return err
		}
		return benchLag(ctx, e, cfg, *jsonOut)
	case "metadata":
		if *metaAssets <= 0 || *metaLatency <= 0 || *metaErrors < 0 || *metaErrors >= 1 || *metaInFlight <= 0 {
			return usagef("--metadata-assets, --metadata-latency and --metadata-in-flight must be positive, --metadata-errors in [0, 1)")
		}
		cfg := metabench.Config{Assets: *metaAssets, Latency: *metaLatency, ErrorRate: *metaErrors, InFlight: *metaInFlight, Progress: e.stderr}
		if *quick {
			cfg.Assets = min(cfg.Assets, 500)
		}
		return benchMetadata(ctx, e, *url, cfg, *jsonOut)
	case "soak":
		if *soakQuiet <= 0 || *soakFor <= 0 || *soakClients <= 0 || *soakRate <= 0 || *soakHostile <= 0 || *soakMem < 0 {
			return usagef("--soak-quiet, --soak-duration, --soak-clients, --soak-rate and --soak-hostile must be positive, --soak-memory-mb not negative")
		}
		cfg := soakbench.Config{Demo: strings.Split(*demo, ","), Quiet: *soakQuiet, Soak: *soakFor, Clients: *soakClients, Rate: *soakRate,
			Hostile: *soakHostile, MemoryMiB: *soakMem, Seed: *seed}
		if *quick {
			if !flagSet(fs, "soak-quiet") {
				cfg.Quiet = 2 * time.Second
			}
			if !flagSet(fs, "soak-duration") {
				cfg.Soak = 4 * time.Second
			}
			if !flagSet(fs, "soak-clients") {
				cfg.Clients = 8
			}
			if !flagSet(fs, "soak-hostile") {
				cfg.Hostile = 2
			}
		}
		var err error
		if cfg.Bin, err = findDasch(*daschBin); err != nil {
			return err
		}
		return benchSoak(ctx, e, cfg, *jsonOut)
	}
	return usagef("--suite must be insert, compressed, assets, lag, metadata or soak, not %q", *suite)
}

func benchInsert(ctx context.Context, e *env, url string, rows, batch int, jsonOut string) error {
	started, load := time.Now(), benchjson.LoadAvg()
	if url == "" {
		d, err := tempDir(e, "dasch-bench-*")
		if err != nil {
			return err
		}
		defer d.Remove()
		url = "embedded:" + d.Path
	}
	s, closeStore, err := openStore(ctx, e, url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	fmt.Fprintf(e.stdout, "bench: %d synthetic accounts, batches of %d, store %s (%s)\n", rows, batch, url, s.Engine())
	rep, err := bench.RunInsert(ctx, s, rows, batch)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "raw insert (pre-built Arrow batches): %12.0f rows/s\n", rep.RawRate())
	fmt.Fprintf(e.stdout, "pipeline (decode → Arrow → insert):   %12.0f rows/s\n", rep.PipelineRate())
	fmt.Fprintf(e.stdout, "pipeline / raw:                       %12.2f\n", rep.Ratio())
	return writeJSON(jsonOut, rep.JSON(started, load, batch))
}

// benchAssets runs on an empty embedded store of its own, opened as the
// compressed suite opens it; with rc.Bin, it then closes the store and
// times a restart of that binary's server on it.
func benchAssets(ctx context.Context, e *env, url string, cfg assetbench.Config, rc assetbench.RestartConfig, jsonOut string) error {
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	if cfg.Postgres {
		if _, err := pgref.FindBinDir(); err != nil && cfg.PGBinDir == "" {
			return fmt.Errorf("%w; or pass --postgres=false to measure dasch alone", err)
		}
	}
	var rep *assetbench.Report
	if strings.HasPrefix(url, "clickhouse://") {
		// A restart needs an embedded directory to start dasch serve on.
		db, err := openServerStore(ctx, e, url, "assets")
		if err != nil {
			return err
		}
		defer db.Close()
		fmt.Fprintf(e.stderr, "bench: assets suite, %d assets, store %s (no restart on a server store)\n", cfg.Gen.Assets, redactURL(url))
		if rep, err = assetbench.Run(ctx, db, cfg); err != nil {
			return err
		}
		rep.WriteTable(e.stdout)
		return writeJSON(jsonOut, rep.JSON())
	}
	err := withBenchStore(ctx, e, url, "assets", func(db *chdb.DB, dir string) error {
		fmt.Fprintf(e.stderr, "bench: assets suite, %d assets, store %s\n", cfg.Gen.Assets, dir)
		var err error
		rep, err = assetbench.Run(ctx, db, cfg)
		return err
	}, func(dir string) error {
		if rc.Bin == "" {
			return nil
		}
		rc.Dir = dir
		rc.Progress = func(format string, a ...any) { fmt.Fprintf(e.stderr, "bench: "+format+"\n", a...) }
		return rep.MeasureRestart(ctx, rc)
	})
	if rep == nil {
		return err
	}
	// A failed restart still leaves the run's other figures to report.
	rep.WriteTable(e.stdout)
	if jerr := writeJSON(jsonOut, rep.JSON()); err == nil {
		err = jerr
	}
	return err
}

// benchMetadata runs the metadata suite on an empty embedded store of its
// own.
func benchMetadata(ctx context.Context, e *env, url string, cfg metabench.Config, jsonOut string) error {
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	started, load := time.Now(), benchjson.LoadAvg()
	var rep *metabench.Report
	err := withBenchStore(ctx, e, url, "metadata", func(db *chdb.DB, dir string) error {
		if _, err := schema.Migrate(ctx, db); err != nil {
			return err
		}
		var err error
		rep, err = metabench.Run(ctx, db, cfg)
		return err
	}, func(string) error { return nil })
	if err != nil {
		return err
	}
	rep.WriteTable(e.stdout)
	return writeJSON(jsonOut, rep.JSON(started, load))
}

// findDasch is the dasch binary: bin when given, else the one beside this
// executable (as make build leaves them), else dasch on PATH.
func findDasch(bin string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "dasch")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("dasch"); err == nil {
		return p, nil
	}
	return "", usagef("the restart and the lag suite need the dasch binary, not found beside dasch-bench or on PATH: build it (make build), pass --dasch-bin, or --restart=false")
}

// flagSet reports whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// withBenchStore opens an empty, migrated embedded store for a suite that
// loads its own state (a temporary one when url is empty), with the query
// condition cache off so repeated reads are computed every time. after,
// when set, runs once run succeeded and the store is closed and the
// engine stopped, before a temporary store is removed.
func withBenchStore(ctx context.Context, e *env, url, suite string, run func(db *chdb.DB, dir string) error, after func(dir string) error) error {
	dir := strings.TrimPrefix(url, "embedded:")
	switch {
	case url == "":
		d, err := tempDir(e, "dasch-bench-*")
		if err != nil {
			return err
		}
		defer d.Remove()
		dir = d.Path
	case dir == url || dir == "":
		return usagef("the %s suite needs an empty embedded store (--store embedded:DIR), not %q", suite, url)
	default:
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return usagef("--store %s is not empty: the %s suite loads its own state", url, suite)
		}
	}
	db, err := chdb.Open(ctx, dir, chdb.Options{Logger: e.log, Settings: map[string]string{"use_query_condition_cache": "0"}})
	if err != nil {
		return err
	}
	closed := false
	closeStore := func() {
		if closed {
			return
		}
		closed = true
		db.Close()
		if err := chdb.Shutdown(); err != nil && !errors.Is(err, chdb.ErrShutdownIncomplete) {
			e.log.Warn("stopping the embedded engine", "err", err)
		}
	}
	defer closeStore()
	if _, err := schema.Migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := run(db, dir); err != nil || after == nil {
		return err
	}
	closeStore()
	return after(dir)
}

// benchCompressed runs on an embedded store of its own: it needs an empty
// one, and opens it with the query condition cache off so repeated pages
// are computed every time rather than answered from that cache.
func benchCompressed(ctx context.Context, e *env, url string, cfg compressedbench.Config, jsonOut string) error {
	// Ctrl-C must still stop the PostgreSQL reference and remove its files.
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	if cfg.Postgres {
		if _, err := pgref.FindBinDir(); err != nil && cfg.PGBinDir == "" {
			return fmt.Errorf("%w; or pass --postgres=false to measure dasch alone", err)
		}
	}
	if strings.HasPrefix(url, "clickhouse://") {
		return benchCompressedServer(ctx, e, url, cfg, jsonOut)
	}
	dir := strings.TrimPrefix(url, "embedded:")
	switch {
	case url == "":
		d, err := tempDir(e, "dasch-bench-*")
		if err != nil {
			return err
		}
		defer d.Remove()
		dir = d.Path
	case dir == url || dir == "":
		return usagef("the compressed suite needs an empty embedded store (--store embedded:DIR) or an empty ClickHouse server database (clickhouse://...), not %q", url)
	default:
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return usagef("--store %s is not empty: the compressed suite loads its own state", url)
		}
	}
	db, err := chdb.Open(ctx, dir, chdb.Options{Logger: e.log, Settings: map[string]string{"use_query_condition_cache": "0"}})
	if err != nil {
		return err
	}
	defer func() {
		db.Close()
		if err := chdb.Shutdown(); err != nil && !errors.Is(err, chdb.ErrShutdownIncomplete) {
			e.log.Warn("stopping the embedded engine", "err", err)
		}
	}()
	if _, err := schema.Migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintf(e.stderr, "bench: compressed suite, %d token accounts over %d mints, store %s\n", cfg.Gen.Accounts, cfg.Gen.Mints, dir)
	return runCompressed(ctx, e, db, cfg, jsonOut)
}

// benchCompressedServer runs the compressed suite on the server engine: the
// database must hold no tables, as the suite loads its own state.
// openServerStore opens a server store for a suite that loads its own
// state: its database must be empty; it is migrated.
func openServerStore(ctx context.Context, e *env, url, suite string) (*chserver.Store, error) {
	db, err := chserver.Open(ctx, url, chserver.Options{Logger: e.log, Settings: map[string]string{"use_query_condition_cache": "0"}})
	if err != nil {
		return nil, err
	}
	res, err := db.Query(ctx, "SELECT count() FROM system.tables WHERE database = currentDatabase()", nil)
	if err != nil {
		db.Close()
		return nil, err
	}
	if n := fmt.Sprint(res.Rows[0][0]); n != "0" {
		db.Close()
		return nil, usagef("--store %s holds %s tables: the %s suite loads its own state into an empty database", redactURL(url), n, suite)
	}
	if _, err := schema.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return db, nil
}

func benchCompressedServer(ctx context.Context, e *env, url string, cfg compressedbench.Config, jsonOut string) error {
	db, err := openServerStore(ctx, e, url, "compressed")
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(e.stderr, "bench: compressed suite, %d token accounts over %d mints, store %s\n", cfg.Gen.Accounts, cfg.Gen.Mints, redactURL(url))
	return runCompressed(ctx, e, db, cfg, jsonOut)
}

// redactURL drops the password from a store URL for output.
func redactURL(u string) string {
	p, err := neturl.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	p.User = neturl.User(p.User.Username())
	return p.String()
}

func runCompressed(ctx context.Context, e *env, db arrowstore.Store, cfg compressedbench.Config, jsonOut string) error {
	rep, err := compressedbench.Run(ctx, db, cfg)
	if err != nil {
		return err
	}
	rep.WriteTable(e.stdout)
	if err := writeJSON(jsonOut, rep.JSON()); err != nil {
		return err
	}
	if len(rep.Mismatches) > 0 {
		return fmt.Errorf("%d pages differed between dasch and the reference", len(rep.Mismatches))
	}
	return nil
}

// writeJSON writes a run's record to path; no path, no record.
func writeJSON(path string, r *benchjson.Run) error {
	if path == "" {
		return nil
	}
	return r.WriteFile(path)
}
