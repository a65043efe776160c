// Command dasch-bench runs the benchmark suites: the store's insert limit
// against the pipeline, compressed state against the PostgreSQL reference,
// and the asset reads. It is a binary of its own so that the server binary
// links neither the suites nor the PostgreSQL driver; `dasch bench` runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/dasch-labs/dasch/internal/cmdkit"
	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

const usage = "dasch-bench [--suite insert|compressed|assets|lag|metadata|soak] [--store URL] [--rows N] [--accounts N] [--chunk N] [--assets N] [--json FILE]"

// env is what the suites may touch, as in cmd/dasch.
type env struct {
	stdout, stderr io.Writer
	log            *slog.Logger
}

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	os.Exit(run(context.Background(), e, os.Args[1:]))
}

func run(ctx context.Context, e *env, args []string) int {
	if err := runBench(ctx, e, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(e.stderr, "dasch-bench: %v\nusage: %s\n", err, usage)
			return 2
		}
		fmt.Fprintf(e.stderr, "dasch-bench: %v\n", err)
		return 1
	}
	return 0
}

// usageError is a bad command line, answered with the usage text.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{strings.TrimSpace(err.Error())}
	}
	return nil
}

// openStore opens url (see cmdkit.OpenStore).
func openStore(ctx context.Context, e *env, url string, migrate bool) (arrowstore.Store, func(), error) {
	return cmdkit.OpenStore(ctx, e.log, url, migrate)
}

// tempDir makes a run's temporary directory (see cmdkit.TempDir).
func tempDir(e *env, pattern string) (*tempdir.Dir, error) { return cmdkit.TempDir(e.log, pattern) }
