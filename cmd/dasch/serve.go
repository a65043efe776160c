package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/api/parsedevents"
	"github.com/dasch-labs/dasch/api/photon/prover"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/ingesthealth"
	"github.com/dasch-labs/dasch/prices"
	"github.com/dasch-labs/dasch/query/assetcache"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/upstream"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/dial"
	"github.com/dasch-labs/dasch/usage"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve")
	url := fs.String("store", defaultStore(), "store URL")
	listen := fs.String("listen", "127.0.0.1:8899", "address to listen on")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request deadline")
	rate := fs.Float64("rate-limit", 1000, "calls per second per API key, each call of a batch counted (0 = unlimited); with --plan-limits, the plan's limits apply too")
	rateAddr := fs.Float64("rate-limit-addr", 2000, "calls per second per client address over all its keys (0 = unlimited; behind a proxy every client has its address)")
	corsOrigins := fs.String("cors-origins", "*", "origins whose web pages may call the API (CORS), comma-separated; * = any, empty = CORS off")
	maxItems := fs.Int("max-request-items", 10_000, "what one HTTP request may name before any of it runs: its calls plus the ids and other list elements they name (a batch of 100 getAssetBatch calls of 1,000 ids is 100,100); past it, 413")
	answerMB := fs.Int("max-answer-mb", 32, "answers of one HTTP request past which the calls of a batch not yet run are refused (413)")
	gzipMin := fs.Int("compress-min-bytes", 0, "gzip answers of at least this many bytes for clients whose Accept-Encoding admits gzip (0 = never; it pays over links slower than about 1.5 Gbit/s)")
	hot := fs.Bool("hot-index", true, "serve mint holders and token balances from an in-memory index kept in sync with the store")
	hotMB := fs.Int64("hot-index-mb", hotindex.DefaultBalanceBudget>>20, "memory budget of the balance index (--hot-index) in MiB; owners past it are read from the store, and mint holders too unless every owner fits")
	tokenIndex := fs.Bool("token-index", true, "serve compressed token accounts by owner and by delegate from an in-memory index kept in sync with the store")
	tokenMB := fs.Int64("token-index-mb", hotindex.DefaultTokenBudget>>20, "memory budget of the token account index in MiB; owners past it are read from the store")
	// Off by default: the folded state answers getAsset from the store at
	// full speed, and the index grows with the assets it holds.
	assetIndex := fs.Bool("asset-index", false, "also hold raw asset state in memory, kept in sync with the store, for getAsset and getAssetBatch (the folded state in the store answers without it)")
	assetMB := fs.Int64("asset-index-mb", hotindex.DefaultAssetBudget>>20, "memory budget of the asset index in MiB; assets past it are read from the store")
	cacheMB := fs.Int64("asset-cache-mb", 256, "memory budget in MiB of the folded asset documents getAsset and getAssetBatch keep (0 = off); on a clickhouse:// store it needs --ingest, as other processes' folds would go unseen")
	// The embedded engine takes one process per data directory: a server
	// that follows the chain ingests in its own process.
	ingestFails := fs.Int("ingest-fails", 3, "with --ingest: /health and /readiness answer 503 after this many failed ingest runs in a row with the indexed slot not moving")
	ingestSpec := fs.String("ingest", "", "also index from this source while serving, with dasch ingest's flags but --source and --to: rpc:URL follows a node, grpc:URL a Yellowstone gRPC stream, files:DIR is read once")
	upstreamURL := fs.String("rpc-upstream", "", "forward every JSON-RPC method dasch does not implement (getAccountInfo, getLatestBlockhash, ...) to this Solana node, the caller's api-key never sent; default: the node of --ingest rpc:URL; off: none (-32601)")
	upstreamTimeout := fs.Duration("rpc-upstream-timeout", upstream.DefaultTimeout, "deadline of one forwarded call, its answer included (instead of --timeout)")
	proverURL := fs.String("prover", "", "a Light prover service (light-prover) that proves getValidityProof[V2] inputs, as Photon's --prover-url; without one getValidityProof answers an error and getValidityProofV2 a null compressedProof")
	proverTimeout := fs.Duration("prover-timeout", 60*time.Second, "deadline of one proof from --prover")
	priceEvery := fs.Duration("price-refresh", prices.DefaultRefresh, "derive token prices from the indexed swaps this often, for token_info.price_info (docs/prices.md; 0 = off); with --read-only, read the newest a writing process derived")
	inf := addIngestFlags(fs, false)
	uf := addUsageFlags(fs)
	memMB := addMemoryFlag(fs)
	sqlf := addSQLFlags(fs)
	readOnly := addReadOnlyFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *readOnly && *ingestSpec != "" {
		return usagef("--read-only and --ingest: a read-only store cannot be indexed into")
	}
	if *readOnly && *sqlf.listen != "" {
		return usagef("--read-only and --sql-listen: the SQL server needs a writable directory; analysts can run dasch sql --read-only beside a read-only serve")
	}
	e.readOnly = *readOnly
	hotBudget, err := budgetFlag("hot-index-mb", *hotMB)
	if err != nil {
		return err
	}
	if *priceEvery < 0 {
		return usagef("--price-refresh: %v, want 0 (off) or more", *priceEvery)
	}
	fwd, err := upstreamFlag(*upstreamURL, *ingestSpec, *upstreamTimeout)
	if err != nil {
		return err
	}
	var prv *prover.Client
	if *proverURL != "" {
		// The key is read from the environment only: flags show in ps.
		if prv, err = prover.New(*proverURL, prover.Options{Timeout: *proverTimeout, APIKey: os.Getenv("DASCH_PROVER_API_KEY")}); err != nil {
			return usagef("--prover: %v", err)
		}
	}
	bcfg, err := uf.billingConfig()
	if err != nil {
		return err
	}
	if *uf.printBilling {
		return printBillingConfig(e, bcfg)
	}
	var plan *ingestPlan
	if *ingestSpec != "" {
		if plan, err = inf.check(fs, *ingestSpec); err != nil {
			return err
		}
	} else {
		for _, name := range inf.names {
			if set(fs, name) {
				return usagef("--%s applies with --ingest only", name)
			}
		}
	}
	origins, noCORS := corsFlag(*corsOrigins)
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	if err := applyMemory(e, *memMB, true); err != nil {
		return err
	}
	// With --sql-listen the engine runs in a child process, reached as a
	// clickhouse:// store; *url stays what is logged and decided on.
	storeURL, stopSQL, sqlFailed, err := serveSQL(ctx, e, fs, sqlf, *url, cancel)
	if err != nil {
		return err
	}
	defer stopSQL()
	s, closeStore, err := openStore(ctx, e, storeURL, true)
	if err != nil {
		return err
	}
	defer closeStore()
	if dial.ReadOnly(s) {
		if plan != nil {
			return fmt.Errorf("serve --ingest: the store %s opened read-only (the directory is not writable)", *url)
		}
		if *uf.log {
			e.log.Info("request log off: the store is read-only")
			*uf.log = false
		}
	}

	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return err
	}
	go keys.Watch(ctx, *uf.watch, func(err error) { e.log.Warn("api key check failed", "err", err) })

	// The indexes are handed to the handlers empty and loaded once the
	// server listens (a minute for 20M token accounts): until each is
	// loaded, its methods read the store, so a restart does not stop
	// reads.
	var loads []indexLoad
	onErr := func(what string) func(error) {
		return func(err error) { e.log.Warn(what+" sync failed", "err", err) }
	}
	// One cache of the indexed slot for every method: each reads the
	// checkpoint at most once per TTL, whichever method asks.
	mo := methods.Options{Methods: methods.All, Store: s, Slots: checkpoint.NewSlotCache(s, 200*time.Millisecond), Logger: e.log}
	if prv != nil {
		mo.Prover = prv
	}
	if plan != nil && (plan.rpc != nil || plan.grpc != nil) {
		// getIndexerHealth compares the indexed slot with the node's, as
		// Photon does, through a client of its own (the ingest's is
		// configured again when it restarts).
		if mo.Tip, mo.NodeBalance, err = nodeClient(*ingestSpec, *inf.commitment, *inf.xToken); err != nil {
			return err
		}
	}
	if *hot {
		x := hotindex.New(s, hotBudget)
		mo.Hot = x
		loads = append(loads, indexLoad{"hot index", x.Start, func() string {
			st := x.Stats()
			return fmt.Sprintf("%d balances (%d owners, %d mints, ~%d MiB, %d of %d chunks)", st.Entries, st.Owners, st.Mints, st.Bytes>>20, st.HeldChunks, st.Chunks)
		}})
	}
	if *tokenIndex {
		x := hotindex.NewTokens(s, *tokenMB<<20)
		mo.HotTokens = x
		loads = append(loads, indexLoad{"token index", x.Start, func() string {
			st := x.Stats()
			return fmt.Sprintf("%d accounts (%d owners, ~%d MiB, complete %v)", st.Accounts, st.Owners, st.Bytes>>20, st.Complete)
		}})
	}
	if *assetIndex {
		x := hotindex.NewAssets(s, *assetMB<<20)
		mo.Assets = x
		if plan != nil && plan.meta != nil {
			mo.Content = plan.meta.content
		}
		loads = append(loads, indexLoad{"asset index", x.Start, func() string {
			st := x.Stats()
			return fmt.Sprintf("%d entries (~%d MiB, complete %v)", st.Entries, st.Bytes>>20, st.Complete)
		}})
	}
	// Right only while every fold of the store is this process's: the
	// embedded engine lets no other process write, and --ingest folds here.
	if cache := assetcache.New(*cacheMB << 20); cache != nil {
		if plan != nil || strings.HasPrefix(*url, "embedded:") {
			mo.AssetCache = cache
			if plan != nil {
				plan.folded = cache.Invalidate
			}
		} else {
			e.log.Info("asset cache off: other processes may fold this store; serve with --ingest to use it")
		}
	}
	var priceCache *prices.Cache
	if *priceEvery > 0 {
		priceCache = &prices.Cache{}
		mo.Prices = priceCache
	}
	// Readiness turns false once the ingest has failed this many runs in
	// a row without the indexed slot moving.
	ingestHealth := ingesthealth.New(*ingestFails)
	meter, err := uf.setup(e, bcfg, s, keys, &mo)
	if err != nil {
		return err
	}
	if plan != nil {
		plan.metrics = meter.reg
		plan.meta.reg = meter.reg // the metadata fetcher's figures on /metrics
	}
	srv, err := server.New(server.Config{
		Listen:           *listen,
		RequestTimeout:   *timeout,
		RateLimitPerKey:  *rate,
		RateLimitPerAddr: *rateAddr,
		Logger:           e.log,
		CompressMinBytes: *gzipMin,
		MaxAnswerBytes:   *answerMB << 20,
		MaxRequestItems:  *maxItems,
		CORSOrigins:      origins,
		NoCORS:           noCORS,
		Meter:            meter.meter,
		ProbeEvery:       time.Second,
		Upstream:         fwd,
	}, methods.New(mo), usage.Keys{Checker: keys}, readiness{s, ingestHealth})
	if err != nil {
		return err
	}
	// The parsed-events REST endpoints, beside JSON-RPC on the same keys.
	if err := parsedevents.Register(srv, s, mo.Slots); err != nil {
		return err
	}
	if err := srv.Listen(); err != nil {
		return fmt.Errorf("listen on %s: %w", *listen, err)
	}
	if err := meter.listen(e); err != nil {
		return err
	}
	e.log.Info("serving JSON-RPC", "addr", srv.Addr(), "store", *url, "engine", s.Engine())
	if fwd != nil {
		e.log.Info("forwarding the other JSON-RPC methods", "upstream", fwd.Host(), "timeout", fwd.Timeout())
	}
	// The line tests and scripts wait for.
	fmt.Fprintf(e.stdout, "listening on http://%s\n", srv.Addr())
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		loadIndexes(ctx, loads, time.Second, e.log, e.stdout, onErr)
	}()
	priced := make(chan struct{})
	if priceCache == nil {
		close(priced)
	} else {
		go func() {
			defer close(priced)
			o := prices.DefaultOptions()
			if *readOnly {
				// Nothing can be written: serve what a writing process
				// refreshed.
				priceCache.Follow(ctx, s, *priceEvery, o.Top, e.log)
				return
			}
			priceCache.Run(ctx, s, *priceEvery, o, e.log)
		}()
	}
	ingested := make(chan struct{})
	if plan == nil {
		close(ingested)
	} else {
		// The indexes take the ingest's writes as they sync with the
		// store. A failed ingest is run again, after the indexed slot,
		// while the server goes on answering (every answer carries the
		// slot it is consistent with), as Photon retries without end.
		go func() {
			defer close(ingested)
			wait := time.Second
			for {
				err := plan.run(ctx, e, s, false)
				if ctx.Err() != nil {
					return
				}
				if err == nil {
					ingestHealth.Succeeded()
					e.log.Info("ingest finished; serving on", "source", *ingestSpec)
					return
				}
				ingestHealth.Failed(err, indexedOrZero(ctx, s))
				e.log.Error("ingest failed; trying again", "source", *ingestSpec, "err", err, "retry_in", wait)
				plan.resume = true
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
				wait = min(2*wait, time.Minute)
			}
		}()
	}
	adminDone := meter.serve(ctx, e)
	err = srv.Serve(ctx)
	// A load or an ingest still running uses the store: stop them
	// before the store closes.
	cancel()
	<-loaded
	<-priced
	<-ingested
	<-adminDone
	meter.close(e)
	if err == nil {
		err = sqlFailed()
	}
	return err
}

// upstreamFlag reads --rpc-upstream: a node URL, "off", or nothing for
// the node --ingest rpc:URL follows (none for other sources).
func upstreamFlag(v, ingestSpec string, timeout time.Duration) (*upstream.Forwarder, error) {
	switch v {
	case "off":
		return nil, nil
	case "":
		node, ok := strings.CutPrefix(ingestSpec, "rpc:")
		if !ok {
			return nil, nil
		}
		v = node
	}
	f, err := upstream.New(v, upstream.Options{Timeout: timeout})
	if err != nil {
		return nil, usagef("--rpc-upstream: %v", err)
	}
	return f, nil
}

// nodeClient asks the source an rpc:URL or grpc:URL spec names, at the
// ingest's commitment, through a connection of its own: for its newest
// slot (a node's getSlot, with a few quick tries, or the stream server's
// GetSlot), and a node also for wallet balances (nil for a stream).
func nodeClient(spec, commitment, xToken string) (func(context.Context) (uint64, error), func(context.Context, solana.Pubkey) (uint64, error), error) {
	src, err := ingest.ParseSource(spec)
	if err != nil {
		return nil, nil, err
	}
	if g, ok := src.(*source.GRPC); ok {
		if xToken == "" {
			xToken = os.Getenv("DASCH_X_TOKEN")
		}
		if err := g.Configure(source.GRPCOptions{Commitment: commitment, XToken: xToken}); err != nil {
			return nil, nil, err
		}
		return g.Tip, nil, nil
	}
	rpc, ok := src.(*source.RPC)
	if !ok {
		return nil, nil, fmt.Errorf("%s is not an rpc source", spec)
	}
	if err := rpc.Configure(source.RPCOptions{Commitment: commitment, Attempts: 3, Backoff: 100 * time.Millisecond, Timeout: 2 * time.Second}); err != nil {
		return nil, nil, err
	}
	return rpc.Tip, rpc.Balance, nil
}

// corsFlag reads --cors-origins: a comma-separated list of origins, "*"
// for any (server.Config's empty list), nothing at all for CORS off.
func corsFlag(v string) (origins []string, off bool) {
	for _, o := range strings.Split(v, ",") {
		switch o = strings.TrimSpace(o); o {
		case "*":
			return nil, false
		case "":
		default:
			origins = append(origins, o)
		}
	}
	return origins, len(origins) == 0
}

// loadIndexes starts the indexes one after the other, each printing its
// load line. One that fails (the store was unreachable a moment, say) is
// logged and tried again after the others, after wait, then twice as long
// each time up to a minute, until ctx ends: meanwhile the store answers its
// methods.
func loadIndexes(ctx context.Context, loads []indexLoad, wait time.Duration, log *slog.Logger, out io.Writer,
	onErr func(string) func(error)) {
	for len(loads) > 0 {
		var failed []indexLoad
		for _, l := range loads {
			took, err := l.start(ctx, hotindex.DefaultSyncInterval, onErr(l.name))
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				log.Error(l.name+" did not load; the store answers its methods until it does", "err", err, "retry_in", wait)
				failed = append(failed, l)
				continue
			}
			fmt.Fprintf(out, "%s: %s loaded in %s\n", l.name, l.stats(), took.Round(time.Millisecond))
		}
		if loads = failed; len(loads) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}

// indexLoad is an index the server loads after it starts listening.
type indexLoad struct {
	name  string
	start func(ctx context.Context, interval time.Duration, onErr func(error)) (time.Duration, error)
	stats func() string
}

// readiness reports whether the store answers (Ready: calls are served)
// and, for the health endpoint, also that the ingest served beside the
// API is not failing (Healthy).
type readiness struct {
	s      store.Querier
	ingest *ingesthealth.Tracker
}

func (r readiness) Ready(ctx context.Context) error {
	if _, err := r.s.Query(ctx, "SELECT 1", nil); err != nil {
		return fmt.Errorf("store not ready: %w", err)
	}
	return nil
}

func (r readiness) Healthy(ctx context.Context) error {
	if err := r.Ready(ctx); err != nil {
		return err
	}
	return r.ingest.Check(indexedOrZero(ctx, r.s))
}

// indexedOrZero is the store's indexed slot, 0 when nothing is or it
// cannot be read.
func indexedOrZero(ctx context.Context, s store.Querier) uint64 {
	slot, err := checkpoint.ContextSlot(ctx, s)
	if err != nil {
		return 0
	}
	return slot
}
