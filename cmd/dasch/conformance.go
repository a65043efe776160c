package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/dasch-labs/dasch/conformance"
	"github.com/dasch-labs/dasch/server"
)

func runConformance(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || (args[0] != "photon" && args[0] != "das") {
		return usagef("expected a suite: photon or das")
	}
	if args[0] == "das" {
		return runConformanceDAS(ctx, e, args[1:])
	}
	fs := newFlags(e, "conformance photon")
	compat := fs.String("compat", "docs/compat.md", "document listing the deliberate deviations from Photon")
	split := fs.Bool("split", true, "also index every case one transaction per pipeline run")
	hot := fs.Bool("hot", true, "replay every case again with holders, balances and token accounts served from the in-memory indexes, as dasch serve does by default")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one corpus directory")
	}
	dir := fs.Arg(0)
	deviations, err := readDeviations(*compat)
	if err != nil {
		return err
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	d, err := tempDir(e, "dasch-conformance-*")
	if err != nil {
		return fmt.Errorf("temporary store: %w", err)
	}
	defer d.Remove()
	tmp := d.Path
	s, closeStore, err := openStore(ctx, e, "embedded:"+tmp, true)
	if err != nil {
		return err
	}
	defer closeStore()
	passes := []struct {
		name string
		hot  bool
	}{{"store", false}, {"in-memory indexes", true}}
	if !*hot {
		passes = passes[:1]
	}
	failed, total := 0, 0
	for _, pass := range passes {
		if *hot {
			fmt.Fprintf(e.stdout, "# served from the %s\n", pass.name)
		}
		sum, err := conformance.Run(ctx, conformance.Options{
			Dir:        dir,
			Store:      s,
			Indexer:    conformance.IngestIndexer{},
			Deviations: deviations,
			Out:        e.stdout,
			SplitRuns:  *split && !pass.hot, // batching is the store path's concern
			Hot:        pass.hot,
		})
		if err != nil {
			return err
		}
		failed += sum.Failed
		total += sum.Passed + sum.Failed + sum.Skipped + sum.Deviations
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d cases failed", failed, total)
	}
	return nil
}

// readDeviations loads the deviations table; a missing document means none
// are expected, so every difference is a failure.
func readDeviations(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("compat document: %w", err)
	}
	defer f.Close()
	return conformance.ParseDeviations(f)
}

// runConformanceDAS replays a DAS corpus (getAsset and getAssetBatch cases;
// cases of methods not served yet are reported as skipped).
func runConformanceDAS(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "conformance das")
	compat := fs.String("compat", "docs/das-compat.md", "document listing the deliberate deviations from the reference")
	only := fs.String("only", "", "run only the cases whose name contains this text")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one corpus directory")
	}
	deviations, err := readDeviations(*compat)
	if err != nil {
		return err
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	d, err := tempDir(e, "dasch-conformance-*")
	if err != nil {
		return fmt.Errorf("temporary store: %w", err)
	}
	defer d.Remove()
	tmp := d.Path
	s, closeStore, err := openStore(ctx, e, "embedded:"+tmp, true)
	if err != nil {
		return err
	}
	defer closeStore()
	sum, err := conformance.RunDAS(ctx, conformance.DASOptions{
		Dir:        fs.Arg(0),
		Store:      s,
		Indexer:    conformance.AssetIndexer{},
		Deviations: deviations,
		Out:        e.stdout,
		Only:       *only,
	})
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d of %d cases failed", sum.Failed, sum.Passed+sum.Failed+sum.Skipped+sum.Deviations)
	}
	return nil
}
