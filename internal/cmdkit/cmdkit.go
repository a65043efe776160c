// Package cmdkit holds what the dasch and dasch-bench commands share:
// opening a store from its URL and making a run's temporary directory.
package cmdkit

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/dial"
)

// OpenStore opens url and, when migrate is set, brings the schema up to
// date. The returned close func also stops the embedded engine.
func OpenStore(ctx context.Context, log *slog.Logger, url string, migrate bool) (arrowstore.Store, func(), error) {
	return OpenStoreWith(ctx, log, url, migrate, dial.Options{})
}

// OpenStoreWith is OpenStore with o.
func OpenStoreWith(ctx context.Context, log *slog.Logger, url string, migrate bool, o dial.Options) (arrowstore.Store, func(), error) {
	s, err := dial.OpenWith(ctx, url, log, o)
	if err != nil {
		return nil, nil, err
	}
	closer := func() {
		if err := dial.Close(s); err != nil {
			log.Warn("closing store", "err", err)
		}
	}
	switch {
	case migrate && dial.ReadOnly(s):
		if err := schema.Check(ctx, s); err != nil {
			closer()
			return nil, nil, err
		}
	case migrate:
		if _, err := schema.Migrate(ctx, s); err != nil {
			closer()
			return nil, nil, fmt.Errorf("migrate: %w", err)
		}
	}
	return s, closer, nil
}

// TempDir makes a temporary directory for a run's own store (see package
// tempdir), logging the ones of dead runs it removed first.
func TempDir(log *slog.Logger, pattern string) (*tempdir.Dir, error) {
	dir, removed, err := tempdir.Make(pattern)
	for _, d := range removed {
		log.Info("removed a temporary directory left by a run whose process is gone", "dir", d)
	}
	return dir, err
}
