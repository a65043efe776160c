package main

import (
	"context"
	"os"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/server"
)

func runIngest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ingest")
	url := fs.String("store", defaultStore(), "store URL")
	src := fs.String("source", "", "where to read Solana data: files:DIR")
	workers := fs.Int("workers", 0, "decode workers (0 = one per CPU)")
	if err := parseFlags(fs, args); err != nil {
		return err
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
	// Progress and the summary line go to stdout; the bar only on a terminal.
	_, err = ingest.Run(ctx, ingest.Config{
		Store:    s,
		Source:   source,
		Workers:  *workers,
		Progress: e.stdout,
		IsTTY:    isTerminal(e.stdout),
	})
	return err
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
