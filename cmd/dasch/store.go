package main

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/dial"
)

// openStore opens url and, when migrate is set, brings the schema up to date.
// The returned close func also stops the embedded engine.
func openStore(ctx context.Context, e *env, url string, migrate bool) (arrowstore.Store, func(), error) {
	s, err := dial.Open(ctx, url, e.log)
	if err != nil {
		return nil, nil, err
	}
	closer := func() {
		if err := dial.Close(s); err != nil {
			e.log.Warn("closing store", "err", err)
		}
	}
	if migrate {
		if _, err := schema.Migrate(ctx, s); err != nil {
			closer()
			return nil, nil, fmt.Errorf("migrate: %w", err)
		}
	}
	return s, closer, nil
}

// tempDir makes a temporary directory for a run's own store (see
// package tempdir), logging the ones of dead runs it removed first.
func tempDir(e *env, pattern string) (*tempdir.Dir, error) {
	dir, removed, err := tempdir.Make(pattern)
	for _, d := range removed {
		e.log.Info("removed a temporary directory left by a run whose process is gone", "dir", d)
	}
	return dir, err
}
