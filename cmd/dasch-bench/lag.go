package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/lagbench"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// benchLag runs the lag suite on a store directory of its own.
func benchLag(ctx context.Context, e *env, cfg lagbench.Config, jsonOut string) error {
	started, load := time.Now(), benchjson.LoadAvg()
	d, err := tempDir(e, "dasch-bench-lag-*")
	if err != nil {
		return err
	}
	defer d.Remove()
	cfg.Dir = d.Path
	cfg.OpenStore = func(ctx context.Context, url string) (arrowstore.Store, func(), error) {
		return openStore(ctx, e, url, true)
	}
	cfg.Progress = func(format string, a ...any) { fmt.Fprintf(e.stderr, format+"\n", a...) }
	rep, err := lagbench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Write(e.stdout)
	return writeJSON(jsonOut, rep.JSON(started, load))
}
