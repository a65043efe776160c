package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/soakbench"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// benchSoak runs the soak suite on a store directory of its own. A run
// that did not hold is an error, after its report.
func benchSoak(ctx context.Context, e *env, cfg soakbench.Config, jsonOut string) error {
	started, load := time.Now(), benchjson.LoadAvg()
	d, err := tempDir(e, "dasch-bench-soak-*")
	if err != nil {
		return err
	}
	defer d.Remove()
	cfg.Dir = d.Path
	cfg.OpenStore = func(ctx context.Context, url string) (arrowstore.Store, func(), error) {
		return openStore(ctx, e, url, true)
	}
	cfg.Progress = func(format string, a ...any) { fmt.Fprintf(e.stderr, format+"\n", a...) }
	rep, err := soakbench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Write(e.stdout)
	if err := writeJSON(jsonOut, rep.JSON(started, load)); err != nil {
		return err
	}
	if !rep.Held() {
		return fmt.Errorf("soak: the server did not hold (see the report)")
	}
	return nil
}
