package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func runIngest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ingest")
	url := fs.String("store", defaultStore(), "store URL")
	spec := fs.String("source", "", "where to read Solana data: files:DIR, rpc:URL (a Solana JSON-RPC node: its blocks with getBlock, the accounts they wrote with getMultipleAccounts), "+
		"or grpc:URL (a Yellowstone gRPC stream, https for TLS)")
	f := addIngestFlags(fs, true)
	memMB := addMemoryFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *spec == "" {
		return usagef("--source is required")
	}
	p, err := f.check(fs, *spec)
	if err != nil {
		return err
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	if err := applyMemory(e, *memMB, false); err != nil {
		return err
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	return p.run(ctx, e, s, isTerminal(e.stdout))
}

// ingestFlags are dasch ingest's flags but --source; serve --ingest takes
// them too, but --to (a server follows).
type ingestFlags struct {
	names                                                                 []string // the flags' names
	from, to, commitment, trees, xToken, grpcCA                           *string
	fetchers, workers, batchRows, batchMB, partRows, partMB, balanceCache *int
	batchAge, partAge, progressEvery                                      *time.Duration
	bootstrap, resume, parsed                                             *bool
	meta                                                                  *metadataFlags
}

// followOnly are the flags of sources that follow a chain (rpc:URL and
// grpc:URL); rpcOnly and grpcOnly those of one of them.
var (
	followOnly = []string{"from", "to", "commitment"}
	rpcOnly    = []string{"fetchers", "bootstrap"}
	grpcOnly   = []string{"x-token", "grpc-ca"}
	filesOnly  = []string{"resume"}
)

func addIngestFlags(fs *flag.FlagSet, withTo bool) *ingestFlags {
	f := &ingestFlags{}
	before := map[string]bool{}
	fs.VisitAll(func(fl *flag.Flag) { before[fl.Name] = true })
	defer fs.VisitAll(func(fl *flag.Flag) {
		if !before[fl.Name] {
			f.names = append(f.names, fl.Name)
		}
	})
	f.from = fs.String("from", "", "rpc, grpc: first slot, or latest for the newest (default: the slot after the indexed one, or the newest when nothing is indexed); grpc replays past slots as far as the server keeps them")
	if withTo {
		f.to = fs.String("to", "", "rpc, grpc: last slot (default: follow until stopped with SIGINT or SIGTERM)")
	} else {
		f.to = new(string)
	}
	f.commitment = fs.String("commitment", "confirmed", "rpc, grpc: confirmed (as Photon indexes) or finalized (never rolled back); grpc also takes processed (not taken back if the cluster drops the slot)")
	f.grpcCA = fs.String("grpc-ca", "", "grpc: a PEM file of the authorities an https server's certificate must chain to (default: the system's), for a private CA or a self-signed certificate")
	f.xToken = fs.String("x-token", "", "grpc: the token the server wants (x-token metadata; default $DASCH_X_TOKEN, which keeps it out of the process list)")
	f.fetchers = fs.Int("fetchers", 8, "rpc: getBlock requests in flight at once")
	f.bootstrap = fs.Bool("bootstrap", false, "rpc: on a store with nothing indexed, first list the asset programs' current accounts "+
		"(getProgramAccountsV2, else getProgramAccounts), then follow from the slot after the listing's")
	f.resume = fs.Bool("resume", false, "files: leave out the files at or below the slot that the last run over this directory committed "+
		"(after a run that failed or was stopped; default: read every file again, which changes nothing already in)")
	f.parsed = fs.Bool("parsed-events", true, "parse each transaction into the parsed-events tables (docs/parsed-events.md); false skips it, for a faster ingest of a store that serves no parsed events")
	f.workers = fs.Int("workers", 0, "decode workers (0 = one per CPU)")
	f.trees = fs.String("trees", "", "seed state trees from this trees.json first (default: the built-in list, when none are stored)")
	// Bulk loads want larger inserts: fewer parts for the engine to merge.
	f.batchRows = fs.Int("batch-rows", arrowbatch.DefaultRows, "insert a table's batch at this many rows")
	f.batchMB = fs.Int("batch-mb", arrowbatch.DefaultBytes>>20, "or at this many MiB")
	f.batchAge = fs.Duration("batch-age", arrowbatch.DefaultAge, "or when its oldest row is this old (its part then commits too)")
	// A table's batches go into one part, committed as a whole: a fast
	// load makes few large parts, which merges rewrite less.
	f.partRows = fs.Int("part-rows", arrowbatch.DefaultPartRows, "commit a table's part at this many rows")
	f.partMB = fs.Int("part-mb", arrowbatch.DefaultPartBytes>>20, "or at this many MiB (the engine holds them until then)")
	f.partAge = fs.Duration("part-age", arrowbatch.DefaultPartAge, "or when its oldest row is this old")
	f.progressEvery = fs.Duration("progress-every", 0,
		"off a terminal, print a progress line this often (default: never, but every 30s when following a node)")
	f.balanceCache = fs.Int("balance-cache", compressedstate.DefaultBalanceCache,
		"keep up to this many (owner, mint) balances in memory for the state step (0: read them from the store every step)")
	f.meta = addMetadataFlags(fs)
	return f
}

// ingestPlan is an ingest whose flags were checked.
type ingestPlan struct {
	f           *ingestFlags
	source      source.Source
	rpc         *source.RPC   // the source, when it is one
	grpc        *source.GRPC  // the source, when it is one
	files       *source.Files // the source, when it is one
	partMBSet   bool          // --part-mb was given
	first, last *uint64       // --from and --to
	latest      bool          // --from latest: the node's newest slot
	every       time.Duration // progress lines off a terminal
	batchAge    time.Duration // --batch-age, or followBatchAge
	// resume is set for a run after a failed one: it goes on after the
	// indexed slot, not back to --from (or the newest slot).
	resume bool
	// folded, when set, is told of every asset folded (serve's cache).
	folded func(ids []solana.Pubkey)
	// metrics, when set, takes the rows and dead letters (serve's
	// /metrics).
	metrics ingest.Reporter
	// meta is the off-chain metadata fetcher's plan.
	meta *metadataPlan
}

// check validates the flags against the source spec; errors are usage
// errors.
func (f *ingestFlags) check(fs *flag.FlagSet, spec string) (*ingestPlan, error) {
	if *f.balanceCache < 0 {
		return nil, usagef("--balance-cache must not be negative")
	}
	if *f.batchRows <= 0 || *f.batchMB <= 0 || *f.batchMB > 1<<14 || *f.batchAge <= 0 {
		return nil, usagef("--batch-rows, --batch-mb (at most 16384) and --batch-age must be positive")
	}
	if *f.partRows <= 0 || *f.partMB <= 0 || *f.partMB > 1<<16 || *f.partAge <= 0 {
		return nil, usagef("--part-rows, --part-mb (at most 65536) and --part-age must be positive")
	}
	src, err := ingest.ParseSource(spec)
	if err != nil {
		return nil, usagef("%v", err)
	}
	p := &ingestPlan{f: f, source: src, partMBSet: set(fs, "part-mb")}
	p.rpc, _ = src.(*source.RPC)
	p.grpc, _ = src.(*source.GRPC)
	p.files, _ = src.(*source.Files)
	for _, only := range []struct {
		names []string
		ok    bool
		msg   string
	}{
		{followOnly, p.rpc != nil || p.grpc != nil, "--from, --to and --commitment apply to rpc:URL and grpc:URL sources only"},
		{rpcOnly, p.rpc != nil, "--fetchers and --bootstrap apply to rpc:URL sources only"},
		{grpcOnly, p.grpc != nil, "--x-token and --grpc-ca apply to grpc:URL sources only"},
		{filesOnly, p.files != nil, "--resume applies to files:DIR sources only (rpc:URL and grpc:URL go on after the indexed slot by themselves)"},
	} {
		for _, name := range only.names {
			if !only.ok && set(fs, name) {
				return nil, usagef("%s", only.msg)
			}
		}
	}
	for _, v := range []struct {
		name, v string
		into    **uint64
	}{{"from", *f.from, &p.first}, {"to", *f.to, &p.last}} {
		if v.v == "" {
			continue
		}
		if v.name == "from" && v.v == "latest" {
			p.latest = true
			continue
		}
		n, err := strconv.ParseUint(v.v, 10, 64)
		if err != nil {
			return nil, usagef("--%s %q: want a slot number", v.name, v.v)
		}
		if v.name == "to" && n == 0 {
			return nil, usagef("--to 0: want a slot above 0 (without --to, the node is followed)")
		}
		*v.into = &n
	}
	if *f.bootstrap && (p.first != nil || p.latest) {
		return nil, usagef("--bootstrap starts at the node's newest slot: --from does not apply")
	}
	if *f.fetchers <= 0 || *f.fetchers > 256 {
		return nil, usagef("--fetchers must be between 1 and 256")
	}
	if *f.progressEvery < 0 {
		return nil, usagef("--progress-every must not be negative")
	}
	p.every, p.batchAge = *f.progressEvery, *f.batchAge
	if p.meta, err = f.meta.check((p.rpc != nil || p.grpc != nil) && p.last == nil); err != nil {
		return nil, err
	}
	if (p.rpc != nil || p.grpc != nil) && p.last == nil {
		if !set(fs, "progress-every") {
			// A follower never ends with a summary: say how it goes.
			p.every = 30 * time.Second
		}
		if !set(fs, "batch-age") {
			p.batchAge = followBatchAge
		}
	}
	return p, nil
}

// partBytes is --part-mb, bounded by an eighth of the engine's memory
// (0: unknown) unless given: the engine holds a part's rows until it
// commits, and several tables fill parts at once.
func (p *ingestPlan) partBytes(engineMemory int64) int {
	n := *p.f.partMB << 20
	if p.partMBSet || engineMemory <= 0 {
		return n
	}
	return int(min(int64(n), max(16<<20, engineMemory/8)))
}

// engineMemory is the memory the engine behind s may use: the embedded
// engine's share of this process's budget, or a server's own limit
// (max_server_memory_usage), which is the one that holds its parts.
func engineMemory(ctx context.Context, e *env, s arrowstore.Store) int64 {
	if s.Engine() != "clickhouse" {
		return e.engineMemory
	}
	res, err := s.Query(ctx, `SELECT toInt64(value) FROM system.server_settings WHERE name = 'max_server_memory_usage'`, nil)
	if err != nil || len(res.Rows) == 0 {
		e.log.Warn("server memory limit unknown: parts bounded by --part-mb only", "err", err)
		return 0
	}
	r := res.Row(0)
	n := r.I64(0)
	if r.Err() != nil {
		return 0
	}
	return n
}

// followBatchAge is a follower's batch age unless --batch-age says
// otherwise. A slot is indexed about this long plus a fixed delay after
// the node has it, so the bulk default of 1 s would lag a follower by
// more than two slots (BenchmarkFollowLag, docs/performance.md).
// Live, a block's rows go in one insert a table either way; catching up,
// batches fill by rows first, but a table that gets few rows commits a
// part each time its batch ages, so shorter ages make more parts to merge.
const followBatchAge = 100 * time.Millisecond

// run seeds the trees, picks an rpc source's first slot and ingests,
// printing progress (a bar on a terminal) and the summary to e.stdout. A
// source following a node ends without error when ctx ends: what was
// committed is kept and the next run goes on after it.
func (p *ingestPlan) run(ctx context.Context, e *env, s arrowstore.Store, tty bool) error {
	if *p.f.trees != "" {
		if err := seedTrees(ctx, s, *p.f.trees); err != nil {
			return err
		}
	}
	cfg := ingest.Config{
		Store:         s,
		Source:        p.source,
		Workers:       *p.f.workers,
		BatchRows:     *p.f.batchRows,
		BatchBytes:    *p.f.batchMB << 20,
		BatchAge:      p.batchAge,
		PartRows:      *p.f.partRows,
		PartBytes:     p.partBytes(engineMemory(ctx, e, s)),
		PartAge:       *p.f.partAge,
		Progress:      e.stdout,
		IsTTY:         tty,
		ProgressEvery: p.every,
		Metrics:       p.metrics,
		ProgressNote:  p.meta.note,
	}
	var fold *assetstate.FoldStep
	dec := decoders.Options{Step: func(st *compressedstate.StateStep) { st.BalanceCache(*p.f.balanceCache) }, Folded: p.folded,
		Content: p.meta.content, FoldStep: func(st *assetstate.FoldStep) { fold = st }, NoParsedEvents: !*p.f.parsed}
	if err := decoders.Configure(ctx, s, &cfg, dec); err != nil {
		return err
	}
	if p.rpc != nil {
		if done, err := p.configureRPC(ctx, e, s, &cfg); err != nil || done {
			return err
		}
	}
	if p.files != nil {
		if err := p.configureFiles(ctx, e, s, &cfg); err != nil {
			return err
		}
	}
	if p.grpc != nil {
		// The subscription asks for what the decoders read.
		if done, err := p.configureGRPC(ctx, e, s, decoders.Interest(&cfg)); done || err != nil {
			return err
		}
	}
	err := p.runWithFetcher(ctx, e, s, cfg, fold)
	if err != nil {
		// Stopped or failed: the hint reads the store after ctx ended.
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		p.filesHint(hctx, e, s)
		cancel()
	}
	return err
}

// runWithFetcher runs the ingest and, beside it, the metadata fetcher
// when it is on; a run that ends (not a follower) then fetches what is
// due before it returns.
func (p *ingestPlan) runWithFetcher(ctx context.Context, e *env, s arrowstore.Store, cfg ingest.Config, fold *assetstate.FoldStep) error {
	follow := (p.rpc != nil || p.grpc != nil) && p.last == nil
	fetcher, closeClient, err := p.meta.fetcher(e, s, fold)
	if err != nil {
		return err
	}
	defer closeClient()
	fctx, stopFetch := context.WithCancel(ctx)
	fetched := make(chan error, 1)
	if fetcher != nil {
		go func() { fetched <- fetcher.Run(fctx) }()
	} else {
		fetched <- nil
	}
	_, err = ingest.Run(ctx, cfg)
	stopFetch()
	ferr := <-fetched
	if follow && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return ferr
	}
	if err == nil && fetcher != nil {
		if err := fetcher.Drain(ctx, drainWait); err != nil && ctx.Err() == nil {
			return err
		}
		fmt.Fprintln(e.stdout, p.meta.summary())
	}
	if err != nil {
		return err
	}
	return ferr
}

// configureRPC sets the rpc source's options: its first slot, or a
// listing of the accounts first (bootstrapDue), and the programs whose
// accounts it reads, those the decoders of cfg read. done is set when
// there is nothing to read.
func (p *ingestPlan) configureRPC(ctx context.Context, e *env, s arrowstore.Store, cfg *ingest.Config) (done bool, err error) {
	o := source.RPCOptions{Commitment: *p.f.commitment, Fetchers: *p.f.fetchers, Logger: e.log,
		Owners: decoders.Interest(cfg).AccountOwners}
	if p.last != nil {
		o.To = *p.last
	}
	if o.Bootstrap, err = bootstrapDue(ctx, s, *p.f.bootstrap); err != nil {
		return false, err
	}
	if o.Bootstrap {
		o.Reads = decoders.AccountReads(cfg)
	} else {
		if o.From, err = rpcStart(ctx, s, p.rpc, p.first, p.latest, p.resume); err != nil {
			return false, err
		}
		if o.To != 0 && o.To < o.From {
			if p.first == nil && !p.latest {
				// A range ingested already: nothing left to do.
				fmt.Fprintf(e.stdout, "slots up to %d are indexed already: nothing to read\n", o.From-1)
				return true, nil
			}
			return false, usagef("--to %d is before --from %d", o.To, o.From)
		}
	}
	if err := p.rpc.Configure(o); err != nil {
		return false, usagef("%v", err)
	}
	switch {
	case o.Bootstrap:
		fmt.Fprintf(e.stdout, "listing the accounts of %s at its newest slot, then following it (%s)\n", p.rpc.Spec(), o.Commitment)
	case o.To == 0:
		fmt.Fprintf(e.stdout, "following %s from slot %d (%s); stop with Ctrl-C\n", p.rpc.Spec(), o.From, o.Commitment)
	}
	return false, nil
}

// bootstrapDue tells whether an rpc source lists the accounts first:
// asked to, on a store with nothing indexed. A store with an indexed
// slot was listed (or indexed otherwise) already and goes on after it; a
// listing cut short left nothing indexed, and is done again.
func bootstrapDue(ctx context.Context, s arrowstore.Store, asked bool) (bool, error) {
	if !asked {
		return false, nil
	}
	_, err := checkpoint.ContextSlot(ctx, s)
	if errors.Is(err, checkpoint.ErrNotIndexed) {
		return true, nil
	}
	return false, err
}

// rpcStart is the first slot an rpc source reads: the one given (or the
// node's newest, for latest), else the slot after the indexed one, else
// (nothing indexed) the node's newest. A resumed run goes on after the
// indexed slot when that is later.
func rpcStart(ctx context.Context, s arrowstore.Store, rpc *source.RPC, given *uint64, latest, resume bool) (uint64, error) {
	indexed, err := checkpoint.ContextSlot(ctx, s)
	has := err == nil
	if err != nil && !errors.Is(err, checkpoint.ErrNotIndexed) {
		return 0, err
	}
	switch {
	case given != nil:
		if resume && has && indexed+1 > *given {
			return indexed + 1, nil
		}
		return *given, nil
	case has && (!latest || resume):
		return indexed + 1, nil
	}
	return rpc.Tip(ctx)
}

// configureGRPC picks a grpc source's first slot as rpcStart does, but
// with nothing indexed (or --from latest) the stream starts live: the
// server replays past slots only from a given one. done says there is
// nothing left to read.
func (p *ingestPlan) configureGRPC(ctx context.Context, e *env, s arrowstore.Store, in decode.Interest) (done bool, err error) {
	indexed, err := checkpoint.ContextSlot(ctx, s)
	has := err == nil
	if err != nil && !errors.Is(err, checkpoint.ErrNotIndexed) {
		return false, err
	}
	o := source.GRPCOptions{Commitment: *p.f.commitment, XToken: *p.f.xToken, Logger: e.log,
		AccountOwners: in.AccountOwners, TxPrograms: in.TxPrograms}
	if o.XToken == "" {
		o.XToken = os.Getenv("DASCH_X_TOKEN")
	}
	if *p.f.grpcCA != "" {
		pem, err := os.ReadFile(*p.f.grpcCA)
		if err != nil {
			return false, usagef("--grpc-ca: %v", err)
		}
		o.RootCAs = x509.NewCertPool()
		if !o.RootCAs.AppendCertsFromPEM(pem) {
			return false, usagef("--grpc-ca %s: no PEM certificate in it", *p.f.grpcCA)
		}
	}
	if p.last != nil {
		o.To = *p.last
	}
	switch {
	case p.first != nil:
		from := *p.first
		if p.resume && has && indexed+1 > from {
			from = indexed + 1
		}
		o.From = &from
	case has && (!p.latest || p.resume):
		from := indexed + 1
		o.From = &from
	}
	if o.To != 0 && o.From != nil && o.To < *o.From {
		if p.first == nil && !p.latest {
			fmt.Fprintf(e.stdout, "slots up to %d are indexed already: nothing to read\n", *o.From-1)
			return true, nil
		}
		return false, usagef("--to %d is before --from %d", o.To, *o.From)
	}
	if err := p.grpc.Configure(o); err != nil {
		return false, usagef("%v", err)
	}
	if o.To == 0 {
		at := "the first whole slot"
		if o.From != nil {
			at = fmt.Sprintf("slot %d", *o.From)
		}
		fmt.Fprintf(e.stdout, "following %s from %s (%s); stop with Ctrl-C\n", p.grpc.Spec(), at, o.Commitment)
	}
	return false, nil
}

// set tells whether the flag was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// seedTrees upserts the trees listed in a trees.json file.
func seedTrees(ctx context.Context, s arrowstore.Store, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("trees: %w", err)
	}
	defer f.Close()
	if err := compressedstate.SeedTrees(ctx, s, f); err != nil {
		return fmt.Errorf("trees %s: %w", path, err)
	}
	return nil
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
