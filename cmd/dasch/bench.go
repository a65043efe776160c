package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dasch-labs/dasch/bench"
)

func runBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench")
	url := fs.String("store", "", "store URL (default: a fresh embedded store in a temporary directory)")
	rows := fs.Int("rows", 1_000_000, "synthetic accounts to insert")
	batch := fs.Int("batch", 50_000, "rows per Arrow batch")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *rows <= 0 {
		return usagef("--rows must be positive")
	}
	if *url == "" {
		dir, err := os.MkdirTemp("", "dasch-bench-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		*url = "embedded:" + dir
	}
	s, closeStore, err := openStore(ctx, e, *url, true)
	if err != nil {
		return err
	}
	defer closeStore()
	fmt.Fprintf(e.stdout, "bench: %d synthetic accounts, batches of %d, store %s (%s)\n", *rows, *batch, *url, s.Engine())
	rep, err := bench.RunInsert(ctx, s, *rows, *batch)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "raw insert (pre-built Arrow batches): %12.0f rows/s\n", rep.RawRate())
	fmt.Fprintf(e.stdout, "pipeline (decode → Arrow → insert):   %12.0f rows/s\n", rep.PipelineRate())
	fmt.Fprintf(e.stdout, "pipeline / raw:                       %12.2f\n", rep.Ratio())
	return nil
}
