package main

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// configureFiles names a files run for its own checkpoint and, with
// --resume, leaves out what the last run over the directory committed.
func (p *ingestPlan) configureFiles(ctx context.Context, e *env, s arrowstore.Store, cfg *ingest.Config) error {
	cfg.Run = p.files.Run()
	if !*p.f.resume {
		return nil
	}
	slot, ok, err := checkpoint.RunSlot(ctx, s, cfg.Run)
	if err != nil {
		return err
	}
	if !ok {
		fmt.Fprintf(e.stdout, "nothing of %s committed yet: reading every file\n", p.files.Spec())
		return nil
	}
	p.files.SkipThrough(slot)
	fmt.Fprintf(e.stdout, "resuming %s after slot %d\n", p.files.Spec(), slot)
	return nil
}

// filesHint says how to go on after a files run that failed, when
// part of it was committed.
func (p *ingestPlan) filesHint(ctx context.Context, e *env, s arrowstore.Store) {
	if p.files == nil {
		return
	}
	slot, ok, err := checkpoint.RunSlot(ctx, s, p.files.Run())
	if err != nil || !ok {
		return
	}
	fmt.Fprintf(e.stderr, "%s is committed up to slot %d: run again with --resume to go on after it\n", p.files.Spec(), slot)
}
