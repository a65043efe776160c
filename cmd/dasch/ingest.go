package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/assets"
	"github.com/dasch-labs/dasch/ingest/compressed"
	isource "github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/query"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store"
)

func runIngest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ingest")
	url := fs.String("store", defaultStore(), "store URL")
	src := fs.String("source", "", "where to read Solana data: files:DIR, or rpc:URL (a Solana JSON-RPC node, read with getBlock)")
	from := fs.String("from", "", "rpc: first slot (default: the slot after the indexed one, or the node's newest when nothing is indexed)")
	to := fs.String("to", "", "rpc: last slot (default: follow the node until stopped with SIGINT or SIGTERM)")
	commitment := fs.String("commitment", "confirmed", "rpc: confirmed (as Photon indexes) or finalized (never rolled back)")
	fetchers := fs.Int("fetchers", 8, "rpc: getBlock requests in flight at once")
	workers := fs.Int("workers", 0, "decode workers (0 = one per CPU)")
	trees := fs.String("trees", "", "seed state trees from this trees.json first (default: the built-in list, when none are stored)")
	// Bulk loads want larger inserts: fewer parts for the engine to merge.
	batchRows := fs.Int("batch-rows", arrowbatch.DefaultRows, "insert a table's batch at this many rows")
	batchMB := fs.Int("batch-mb", arrowbatch.DefaultBytes>>20, "or at this many MiB")
	batchAge := fs.Duration("batch-age", arrowbatch.DefaultAge, "or when its oldest row is this old (its part then commits too)")
	// A table's batches go into one part, committed as a whole: a fast
	// load makes few large parts, which merges rewrite less.
	partRows := fs.Int("part-rows", arrowbatch.DefaultPartRows, "commit a table's part at this many rows")
	partMB := fs.Int("part-mb", arrowbatch.DefaultPartBytes>>20, "or at this many MiB (the engine holds them until then)")
	partAge := fs.Duration("part-age", arrowbatch.DefaultPartAge, "or when its oldest row is this old")
	balanceCache := fs.Int("balance-cache", compressed.DefaultBalanceCache,
		"keep up to this many (owner, mint) balances in memory for the state step (0: read them from the store every step)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *balanceCache < 0 {
		return usagef("--balance-cache must not be negative")
	}
	if *batchRows <= 0 || *batchMB <= 0 || *batchMB > 1<<14 || *batchAge <= 0 {
		return usagef("--batch-rows, --batch-mb (at most 16384) and --batch-age must be positive")
	}
	if *partRows <= 0 || *partMB <= 0 || *partMB > 1<<16 || *partAge <= 0 {
		return usagef("--part-rows, --part-mb (at most 65536) and --part-age must be positive")
	}
	if *src == "" {
		return usagef("--source is required")
	}
	source, err := ingest.ParseSource(*src)
	if err != nil {
		return usagef("%v", err)
	}
	rpc, _ := source.(*isource.RPC)
	if rpc == nil && (set(fs, "from") || set(fs, "to") || set(fs, "commitment") || set(fs, "fetchers")) {
		return usagef("--from, --to, --commitment and --fetchers apply to rpc:URL sources only")
	}
	var first, last *uint64
	for _, f := range []struct {
		name, v string
		into    **uint64
	}{{"from", *from, &first}, {"to", *to, &last}} {
		if f.v == "" {
			continue
		}
		n, err := strconv.ParseUint(f.v, 10, 64)
		if err != nil || (f.name == "to" && n == 0) {
			return usagef("--%s %q: want a slot number (--to above 0)", f.name, f.v)
		}
		*f.into = &n
	}
	if *fetchers <= 0 || *fetchers > 256 {
		return usagef("--fetchers must be between 1 and 256")
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	if rpc != nil {
		o := isource.RPCOptions{Commitment: *commitment, Fetchers: *fetchers}
		if last != nil {
			o.To = *last
		}
		if o.From, err = rpcStart(ctx, s, rpc, first); err != nil {
			return err
		}
		if o.To != 0 && o.To < o.From {
			if first == nil {
				// A range ingested already: nothing left to do.
				fmt.Fprintf(e.stdout, "slots up to %d are indexed already: nothing to read\n", o.From-1)
				return nil
			}
			return usagef("--to %d is before --from %d", o.To, o.From)
		}
		if err := rpc.Configure(o); err != nil {
			return usagef("%v", err)
		}
		if o.To == 0 {
			fmt.Fprintf(e.stdout, "following %s from slot %d (%s); stop with Ctrl-C\n", rpc.Spec(), o.From, o.Commitment)
		}
	}
	if *trees != "" {
		if err := seedTrees(ctx, s, *trees); err != nil {
			return err
		}
	}
	// Progress and the summary line go to stdout; the bar only on a terminal.
	cfg := ingest.Config{
		Store:      s,
		Source:     source,
		Workers:    *workers,
		BatchRows:  *batchRows,
		BatchBytes: *batchMB << 20,
		BatchAge:   *batchAge,
		PartRows:   *partRows,
		PartBytes:  *partMB << 20,
		PartAge:    *partAge,
		Progress:   e.stdout,
		IsTTY:      isTerminal(e.stdout),
	}
	if err := compressed.Configure(ctx, s, &cfg, func(st *compressed.StateStep) { st.BalanceCache(*balanceCache) }); err != nil {
		return err
	}
	cfg.Decoders = append(cfg.Decoders, assets.Decoder{})
	_, err = ingest.Run(ctx, cfg)
	if rpc != nil && last == nil && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// Following ends only on a signal: what was committed is kept
		// and the next run goes on after it.
		return nil
	}
	return err
}

// rpcStart is the first slot an rpc source reads: the one given, else the
// slot after the indexed one, else (nothing indexed) the node's newest.
func rpcStart(ctx context.Context, s store.Store, rpc *isource.RPC, given *uint64) (uint64, error) {
	if given != nil {
		return *given, nil
	}
	indexed, err := query.ContextSlot(ctx, s)
	if err == nil {
		return indexed + 1, nil
	}
	if !errors.Is(err, query.ErrNotIndexed) {
		return 0, err
	}
	return rpc.Tip(ctx)
}

// set tells whether the flag was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// seedTrees upserts the trees listed in a trees.json file.
func seedTrees(ctx context.Context, s store.Store, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("trees: %w", err)
	}
	defer f.Close()
	if err := compressed.SeedTrees(ctx, s, f); err != nil {
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
