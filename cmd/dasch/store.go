package main

import (
	"context"

	"github.com/dasch-labs/dasch/internal/cmdkit"
	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// openStore opens url (see cmdkit.OpenStore).
func openStore(ctx context.Context, e *env, url string, migrate bool) (arrowstore.Store, func(), error) {
	return cmdkit.OpenStore(ctx, e.log, url, migrate)
}

// tempDir makes a run's temporary directory (see cmdkit.TempDir).
func tempDir(e *env, pattern string) (*tempdir.Dir, error) { return cmdkit.TempDir(e.log, pattern) }
