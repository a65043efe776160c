package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/assets"
	"github.com/dasch-labs/dasch/ingest/compressed"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store"
)

func runIngest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ingest")
	url := fs.String("store", defaultStore(), "store URL")
	src := fs.String("source", "", "where to read Solana data: files:DIR")
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
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
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
	return err
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
