package main

import (
	"context"
	"errors"
	"time"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/soakbench"
)

// benchSoak runs the soak suite on a store directory of its own. A run
// that did not hold is an error, after its report.
func benchSoak(ctx context.Context, e *env, cfg soakbench.Config, jsonOut string) error {
	started, load := time.Now(), benchjson.LoadAvg()
	return withServeSuite(e, "dasch-bench-soak-*", func(s serveSuite) error {
		cfg.Dir, cfg.OpenStore, cfg.Progress = s.dir, s.openStore, s.progress
		rep, err := soakbench.Run(ctx, cfg)
		if err != nil {
			return err
		}
		rep.Write(e.stdout)
		if err := writeJSON(jsonOut, rep.JSON(started, load)); err != nil {
			return err
		}
		if !rep.Held() {
			return errors.New("soak: the server did not hold (see the report)")
		}
		return nil
	})
}
