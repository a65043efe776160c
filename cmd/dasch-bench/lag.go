package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/lagbench"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// serveSuite is what the suites that start `dasch serve` on a store
// directory of their own are given: the directory, a way to open its
// store before the server takes it, and a progress printer.
type serveSuite struct {
	dir       string
	openStore func(ctx context.Context, url string) (arrowstore.Store, func(), error)
	progress  func(format string, a ...any)
}

// withServeSuite runs run in a fresh temporary directory, removed after.
func withServeSuite(e *env, pattern string, run func(serveSuite) error) error {
	d, err := tempDir(e, pattern)
	if err != nil {
		return err
	}
	defer d.Remove()
	return run(serveSuite{
		dir: d.Path,
		openStore: func(ctx context.Context, url string) (arrowstore.Store, func(), error) {
			return openStore(ctx, e, url, true)
		},
		progress: func(format string, a ...any) { fmt.Fprintf(e.stderr, format+"\n", a...) },
	})
}

// benchLag runs the lag suite on a store directory of its own.
func benchLag(ctx context.Context, e *env, cfg lagbench.Config, jsonOut string) error {
	started, load := time.Now(), benchjson.LoadAvg()
	return withServeSuite(e, "dasch-bench-lag-*", func(s serveSuite) error {
		cfg.Dir, cfg.OpenStore, cfg.Progress = s.dir, s.openStore, s.progress
		rep, err := lagbench.Run(ctx, cfg)
		if err != nil {
			return err
		}
		rep.Write(e.stdout)
		return writeJSON(jsonOut, rep.JSON(started, load))
	})
}
