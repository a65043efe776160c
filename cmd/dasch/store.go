package main

import (
	"context"
	"flag"
	"os"
	"runtime/debug"

	"github.com/dasch-labs/dasch/internal/membudget"

	"github.com/dasch-labs/dasch/internal/cmdkit"
	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/dial"
)

// openStore opens url (see cmdkit.OpenStore).
func openStore(ctx context.Context, e *env, url string, migrate bool) (arrowstore.Store, func(), error) {
	return cmdkit.OpenStoreWith(ctx, e.log, url, migrate, dial.Options{EngineMemory: e.engineMemory, ReadOnly: e.readOnly})
}

// tempDir makes a run's temporary directory (see cmdkit.TempDir).
func tempDir(e *env, pattern string) (*tempdir.Dir, error) { return cmdkit.TempDir(e.log, pattern) }

// addReadOnlyFlag is --read-only, of the commands that can read a store
// without writing it.
func addReadOnlyFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("read-only", false, "open an embedded store read-only, as a snapshot or backup is read: every write refused, no merges, "+
		"any number of read-only processes beside each other but none beside a writer (a directory this process cannot write opens so by itself)")
}

// addMemoryFlag is --memory-budget, of the commands that open a store
// for long or heavy work.
func addMemoryFlag(fs *flag.FlagSet) *int {
	return fs.Int("memory-budget", 0, "MiB this process may use (default: its cgroup's memory limit, else the machine's memory); "+
		"half goes to the embedded engine, which then fails a query past it with \"memory limit exceeded\", and a third to the Go heap's soft limit")
}

// applyMemory sets the engine's share of the budget for the store about
// to be opened and the Go heap's soft limit (unless GOMEMLIMIT sets it),
// logging the split when announce is set (a server's log).
func applyMemory(e *env, mb int, announce bool) error {
	var b membudget.Budget
	switch {
	case mb < 0:
		return usagef("--memory-budget must not be negative")
	case mb > 0:
		b = membudget.Budget{Bytes: int64(mb) << 20, From: "flag"}
	default:
		var err error
		if b, err = membudget.Detect(); err != nil {
			e.log.Warn("no memory budget", "err", err)
			return nil
		}
	}
	e.engineMemory = b.Engine()
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(b.Go())
	}
	if announce {
		e.log.Info("memory budget", "budget", b.String())
	}
	return nil
}
