// Package dial opens a store from its URL: embedded:DIR (chDB in-process) or
// clickhouse://user:pass@host:9000/db (a ClickHouse server or cluster).
package dial

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chdb"
	"github.com/dasch-labs/dasch/store/chserver"
)

// DefaultURL is the store used when none is given.
const DefaultURL = "embedded:./data"

// Options are how a store is opened beyond its URL.
type Options struct {
	// EngineMemory, when positive, is the embedded engine's memory limit
	// in bytes (max_server_memory_usage): past it a query fails with
	// "memory limit exceeded". A server store keeps its own.
	EngineMemory int64
	// ReadOnly opens an embedded store read-only (chdb.Options.ReadOnly);
	// a server's logins say what they may do instead.
	ReadOnly bool
}

// Open opens the store named by url.
func Open(ctx context.Context, url string, log *slog.Logger) (arrowstore.Store, error) {
	return OpenWith(ctx, url, log, Options{})
}

// OpenWith is Open with o.
func OpenWith(ctx context.Context, url string, log *slog.Logger, o Options) (arrowstore.Store, error) {
	switch {
	case strings.HasPrefix(url, "embedded:"):
		dir := strings.TrimPrefix(url, "embedded:")
		if dir == "" {
			return nil, fmt.Errorf("store %q: embedded needs a directory, e.g. embedded:./data", url)
		}
		opts := chdb.Options{Logger: log, ReadOnly: o.ReadOnly}
		if o.EngineMemory > 0 {
			opts.Settings = map[string]string{"max_server_memory_usage": strconv.FormatInt(o.EngineMemory, 10)}
		}
		return chdb.Open(ctx, dir, opts)
	case strings.HasPrefix(url, "clickhouse://"):
		if o.ReadOnly {
			return nil, fmt.Errorf("store %q: read-only opens an embedded store; on a server, connect as a readonly user", url)
		}
		return chserver.Open(ctx, url, chserver.Options{Logger: log})
	}
	return nil, fmt.Errorf("store %q: unknown scheme; use embedded:DIR or clickhouse://user:pass@host:9000/db", url)
}

// ReadOnly reports whether s was opened read-only (asked for, or an
// embedded directory this process cannot write).
func ReadOnly(s arrowstore.Store) bool {
	r, ok := s.(interface{ ReadOnly() bool })
	return ok && r.ReadOnly()
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
