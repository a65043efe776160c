// Command dasch is the Solana digital-asset and compressed-state indexer:
// one binary with subcommands to migrate, ingest, serve and query.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
)

type command struct {
	summary string
	usage   string
	run     func(ctx context.Context, env *env, args []string) error
}

// helpMore is what `dasch help COMMAND` adds below a command's summary;
// errors print the usage line alone.
func helpMore(name string) string {
	switch name {
	case "ingest":
		return ingestRPCHelp
	case "clickhouse":
		return clickhouseHelp
	}
	return ""
}

// env is what a command may touch: no globals, so commands are testable.
type env struct {
	stdout, stderr io.Writer
	log            *slog.Logger
	// engineMemory is the embedded engine's memory limit for the store
	// the command opens (applyMemory); 0 leaves the engine's default.
	engineMemory int64
	// readOnly opens an embedded store read-only (dial.Options.ReadOnly).
	readOnly bool
}

func commands() map[string]command {
	return map[string]command{
		"serve":       {"serve the JSON-RPC API", "serve [--store URL] [--listen ADDR] [--admin-listen ADDR [--admin-token T]] [--billing FILE] [--plan-limits] [--request-log=false] [--asset-cache-mb N] [--price-refresh D] [--rpc-upstream URL|off] [--prover URL] [--sql-listen HOST:PORT [--sql-http-listen HOST:PORT]] [--ingest SOURCE [dasch ingest's flags but --source and --to]]", runServe},
		"ingest":      {"index Solana data from a source", "ingest [--store URL] [--trees FILE] [--batch-rows N] [--batch-mb N] [--batch-age D] [--part-rows N] [--part-mb N] [--part-age D] --source files:DIR|rpc:URL|grpc:URL [--bootstrap (rpc) | --from SLOT|latest] [--to SLOT] [--commitment processed|confirmed|finalized] [--fetchers N (rpc)] [--x-token T (grpc)] [--progress-every D]", runIngest},
		"migrate":     {"create or upgrade the schema", "migrate [--store URL]", runMigrate},
		"keys":        {"manage API keys", "keys create [--store URL | --admin URL] --project NAME [--services das,photon,rpc] | keys list [--store URL | --admin URL] [--project NAME] | keys revoke [--store URL | --admin URL] KEY_ID", runKeys},
		"projects":    {"manage projects: plan, credits, billing anchor, prepaid credits", "projects create|set [--store URL] [--plan NAME] [--credits-limit N|plan] [--billing-anchor YYYY-MM-DD] [--prepaid-credits N] NAME | projects list [--store URL]", runProjects},
		"sql":         {"run SQL on the store and print the result", "sql [--store URL] [--format table|tsv|json] \"SELECT ...\"", runSQL},
		"bench":       {"benchmarks: insert limit vs pipeline, compressed state and assets vs PostgreSQL (runs dasch-bench)", "bench [--suite insert|compressed|assets] [--store URL] [--rows N] [--accounts N] [--chunk N] [--assets N] [--json FILE]", runBench},
		"conformance": {"replay a Photon or DAS conformance corpus against the API", "conformance photon [--compat docs/compat.md] [--split=false] DIR | conformance das [--compat docs/das-compat.md] [--only TEXT] DIR", runConformance},
		"version":     {"print the version", "version", runVersion},
		"clickhouse":  {"run a ClickHouse server from the embedded engine on a data directory", "clickhouse [--data DIR] [--listen IP[,IP]] [--tcp-port N] [--http-port N] [--users FILE] [--tls-cert FILE --tls-key FILE [--tls-port N]] [--cluster NAME --shard HOST:PORT[,HOST:PORT]...] [--log-level L]", runClickHouse},
	}
}

// ingestRPCHelp says what an rpc:URL source reads, below ingest's usage.
const ingestRPCHelp = `

rpc:URL follows a node's blocks and reads back, after each block, the accounts of the
asset programs it wrote (getMultipleAccounts). --bootstrap, on a store with nothing
indexed, first lists those programs' current accounts (getProgramAccountsV2, else
getProgramAccounts), files them at the node's newest slot and follows from the next
one. See docs/ingest.md.`

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	os.Exit(run(context.Background(), e, os.Args[1:]))
}

func run(ctx context.Context, e *env, args []string) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := cmds[args[1]]; ok {
				fmt.Fprintf(e.stdout, "usage: dasch %s\n\n%s%s\n", c.usage, c.summary, helpMore(args[1]))
				return 0
			}
		}
		help(e.stdout, cmds)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "dasch: unknown command %q (run `dasch help`)\n", args[0])
		return 2
	}
	if err := c.run(ctx, e, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		var ec exitCode
		if errors.As(err, &ec) {
			return int(ec)
		}
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(e.stderr, "dasch %s: %v\nusage: dasch %s\n", args[0], err, c.usage)
			return 2
		}
		fmt.Fprintf(e.stderr, "dasch %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func help(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "dasch: Solana digital-asset and compressed-state indexer on ClickHouse")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nstore URLs: embedded:DIR (default embedded:./data) or clickhouse://user:pass@host:9000/db")
	fmt.Fprintln(w, "  (?cluster=NAME: tables spread over a cluster, docs/clickhouse.md)")
	fmt.Fprintln(w, "run `dasch help COMMAND` for a command's usage")
}

// usageError is a bad command line, answered with the usage text.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// exitCode ends the command with this status, the program it ran having
// reported the failure already.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

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

func defaultStore() string {
	if s := os.Getenv("DASCH_STORE"); s != "" {
		return s
	}
	return "embedded:./data"
}
