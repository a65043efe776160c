// Package dial opens a store from its URL: embedded:DIR (chDB in-process) or
// clickhouse://user:pass@host:9000/db (a ClickHouse server or cluster).
package dial

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chdb"
	"github.com/dasch-labs/dasch/store/chserver"
)

// DefaultURL is the store used when none is given.
const DefaultURL = "embedded:./data"

// Open opens the store named by url.
func Open(ctx context.Context, url string, log *slog.Logger) (arrowstore.Store, error) {
	switch {
	case strings.HasPrefix(url, "embedded:"):
		dir := strings.TrimPrefix(url, "embedded:")
		if dir == "" {
			return nil, fmt.Errorf("store %q: embedded needs a directory, e.g. embedded:./data", url)
		}
		return chdb.Open(ctx, dir, chdb.Options{Logger: log})
	case strings.HasPrefix(url, "clickhouse://"):
		return chserver.Open(ctx, url, chserver.Options{Logger: log})
	}
	return nil, fmt.Errorf("store %q: unknown scheme; use embedded:DIR or clickhouse://user:pass@host:9000/db", url)
}

// Close closes s and, for the embedded engine, stops its threads: call it
// once at process exit.
func Close(s arrowstore.Store) error {
	err := s.Close()
	if s.Engine() == "embedded" {
		if e := chdb.Shutdown(); err == nil && !errors.Is(e, chdb.ErrShutdownIncomplete) {
			err = e
		}
	}
	return err
}
