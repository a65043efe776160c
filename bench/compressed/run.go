// Package compressed benchmarks dasch's compressed-state read paths and
// ingest against a PostgreSQL reference holding the same state in
// Photon's schema, measured in the same run so the ratios compare like
// with like on one machine.
package compressed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/api/photon"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/bench/pgref"
	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store"
)

// Config tunes a run. Zero values take the defaults noted.
type Config struct {
	Gen GenConfig
	// ChunkAccounts is the accounts per generated chunk, which is one
	// insert per table for dasch and one COPY per table and connection for
	// PostgreSQL. Default 500,000.
	ChunkAccounts int
	// Parallel is the number of concurrent inserts or COPY streams.
	// Default 2.
	Parallel int
	// Postgres loads and queries the reference; without it the PostgreSQL
	// columns stay empty.
	Postgres bool
	// PGBinDir overrides where the PostgreSQL binaries are.
	PGBinDir string
	// Depths are the holder-page depths of the largest mint: holders
	// before the page. Default 0, 100,000 and 1,500,000; a depth the mint
	// cannot fill a page at is reported as skipped.
	Depths []int
	// Clients is the number of concurrent clients. Default 64.
	Clients int
	// Pages bounds each sequential page series, Concurrent each concurrent
	// one.
	Pages, Concurrent Budget
	// NarrowRows is the size of the raw insert limit measurement. Default
	// half the accounts, between 1M and 10M.
	NarrowRows int
	// SettleLimit bounds the wait for dasch's merges after the load.
	// Default 5 minutes.
	SettleLimit time.Duration
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
}

func (c *Config) applyDefaults() {
	c.Gen.applyDefaults()
	if c.ChunkAccounts <= 0 {
		c.ChunkAccounts = 500_000
	}
	if c.Parallel <= 0 {
		c.Parallel = 2
	}
	if c.Depths == nil {
		c.Depths = []int{0, 100_000, 1_500_000}
	}
	if c.Clients <= 0 {
		c.Clients = 64
	}
	if c.Pages == (Budget{}) {
		c.Pages = Budget{Warmup: 10, Requests: 300, Time: 8 * time.Second, MinRequests: 30}
	}
	if c.Concurrent == (Budget{}) {
		c.Concurrent = Budget{Warmup: 2, Requests: 20_000, Time: 15 * time.Second}
	}
	if c.NarrowRows <= 0 {
		c.NarrowRows = min(10_000_000, max(1_000_000, c.Gen.Accounts/2))
	}
	if c.SettleLimit <= 0 {
		c.SettleLimit = 5 * time.Minute
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
}

// PageRow is one page measurement: the dasch API over HTTP, the same page
// from the query layer it calls (no HTTP, no JSON), PostgreSQL with
// Photon's query and, for holders, PostgreSQL with the row-value keyset.
type PageRow struct {
	Label                string
	HTTP, SQL, PG, PGRow Series
	// Verified is set when every measured path returned the same pages.
	Verified bool
	// Skip says why the row was not measured, if it was not.
	Skip string
}

// Report is everything one run measured.
type Report struct {
	Cfg      Config
	CPUs     int
	Elapsed  time.Duration
	Postgres bool

	LargestMint    string // base58
	LargestHolders int
	BalanceOwners  int // owners cycled through for balances
	OwnerMintsMin  int // their mint counts
	OwnerMintsMax  int

	NarrowRowsPerSec float64
	Dasch, PG        IngestFigures

	Holders      []PageRow
	Balances     PageRow
	HoldersConc  PageRow
	BalancesConc PageRow

	// Mismatches lists pages that differed between paths.
	Mismatches []string
	Notes      []string
}

// Run generates the state, loads it into s (migrated and empty) and, when
// cfg.Postgres is set, into a fresh PostgreSQL, then measures both.
func Run(ctx context.Context, s store.Store, cfg Config) (*Report, error) {
	cfg.applyDefaults()
	began := time.Now()
	rep := &Report{Cfg: cfg, CPUs: runtime.NumCPU(), Postgres: cfg.Postgres}
	say := func(format string, a ...any) {
		fmt.Fprintf(cfg.Progress, "[%6.1fs] "+format+"\n", append([]any{time.Since(began).Seconds()}, a...)...)
	}
	plan, err := NewPlan(cfg.Gen)
	if err != nil {
		return nil, err
	}

	// PostgreSQL first, on an otherwise idle machine: dasch's background
	// merges would otherwise slow its load.
	var pg *pgref.Server
	if cfg.Postgres {
		say("postgres: starting")
		pg, err = pgref.Start(ctx, pgref.Options{BinDir: cfg.PGBinDir, Settings: pgSettings()})
		if err != nil {
			return nil, err
		}
		defer pg.Stop()
		say("postgres: loading %d token accounts (COPY, %d streams)", cfg.Gen.Accounts, cfg.Parallel)
		if rep.PG, err = loadPostgres(ctx, pg.DSN(), plan, cfg.ChunkAccounts, cfg.Parallel); err != nil {
			return nil, err
		}
		say("postgres: COPY %.1fs, indexes+analyze %.1fs", rep.PG.Load.Seconds(), rep.PG.Index.Seconds())
	}

	say("dasch: raw insert limit, %d narrow rows", cfg.NarrowRows)
	if rep.NarrowRowsPerSec, err = narrowLimit(ctx, s, cfg.NarrowRows, 1_000_000, cfg.Parallel); err != nil {
		return nil, fmt.Errorf("narrow insert limit: %w", err)
	}
	say("dasch: loading %d token accounts (store.Insert, %d streams)", cfg.Gen.Accounts, cfg.Parallel)
	if rep.Dasch, err = loadDasch(ctx, s, plan, cfg.ChunkAccounts, cfg.Parallel); err != nil {
		return nil, err
	}
	say("dasch: inserts %.1fs; waiting for merges", rep.Dasch.Load.Seconds())
	if rep.Dasch.Settle, rep.Dasch.Parts, err = settle(ctx, s, cfg.SettleLimit); err != nil {
		return nil, err
	}
	if rep.Dasch.DiskBytes, err = daschDiskBytes(ctx, s); err != nil {
		return nil, err
	}
	say("dasch: merges settled after %.1fs, parts %v", rep.Dasch.Settle.Seconds(), rep.Dasch.Parts)

	st := rep.Dasch.Stats
	largest := 0
	for m, h := range st.HoldersByMint {
		if h > st.HoldersByMint[largest] {
			largest = m
		}
	}
	mint := plan.MintKey(largest)
	rep.LargestMint = b58(mint)
	rep.LargestHolders = st.HoldersByMint[largest]
	if n, err := daschHolderCount(ctx, s, mint); err != nil {
		return nil, err
	} else if n != rep.LargestHolders {
		return nil, fmt.Errorf("dasch holds %d holders of the largest mint, generated %d", n, rep.LargestHolders)
	}

	// Owners with the most mints, for the balances pages.
	whales := make([]int, len(st.MintsByWhale))
	for j := range whales {
		whales[j] = j
	}
	slices.SortStableFunc(whales, func(a, b int) int { return st.MintsByWhale[b] - st.MintsByWhale[a] })
	whales = whales[:min(16, len(whales))]
	if len(whales) == 0 {
		return nil, errors.New("no whale owners to page balances of: set Gen.Whales")
	}
	owners := make([][32]byte, len(whales))
	for i, j := range whales {
		owners[i] = plan.OwnerKey(plan.Whale(j))
	}
	rep.BalanceOwners = len(owners)
	rep.OwnerMintsMax, rep.OwnerMintsMin = st.MintsByWhale[whales[0]], st.MintsByWhale[whales[len(whales)-1]]

	addr, key, stop, err := startServer(ctx, s, cfg.Progress)
	if err != nil {
		return nil, err
	}
	defer stop()
	rpc := newRPCClient(addr, key, cfg.Clients+8)
	say("dasch: serving JSON-RPC on %s", addr)
	var pc *pgx.Conn
	if pg != nil {
		if pc, err = pgx.Connect(ctx, pg.DSN()); err != nil {
			return nil, err
		}
		defer pc.Close(context.WithoutCancel(ctx))
	}

	// Holder pages of the largest mint at each depth.
	var cursors []*HolderCursor
	for _, d := range cfg.Depths {
		row := PageRow{Label: "holders, depth " + count(d)}
		if d+pageLimit > rep.LargestHolders {
			row.Skip = fmt.Sprintf("the largest mint has %s holders: no full page at depth %s", count(rep.LargestHolders), count(d))
			rep.Holders = append(rep.Holders, row)
			continue
		}
		var cur *HolderCursor
		if d > 0 {
			c, err := daschHolderAt(ctx, s, mint, d-1)
			if err != nil {
				return nil, err
			}
			if pc != nil {
				pcur, err := pgHolderAt(ctx, pc, mint, d-1)
				if err != nil {
					return nil, err
				}
				if pcur != c {
					rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("holder at depth %d: dasch %d/%s, postgres %d/%s",
						d, c.Balance, b58(c.Owner), pcur.Balance, b58(pcur.Owner)))
				}
			}
			cur = &c
		}
		cursors = append(cursors, cur)
		say("holders depth %d: measuring", d)
		pages := map[string]func(ctx context.Context) ([]Holder, error){
			"engine": func(ctx context.Context) ([]Holder, error) { return daschHolders(ctx, s, mint, cur) },
			"http":   func(ctx context.Context) ([]Holder, error) { return rpc.holders(ctx, mint, cur) },
		}
		if pc != nil {
			pages["pg"] = func(ctx context.Context) ([]Holder, error) { return pgHolders(ctx, pc, mint, cur, false) }
			pages["pg-row"] = func(ctx context.Context) ([]Holder, error) { return pgHolders(ctx, pc, mint, cur, true) }
		}
		if err := measurePages(ctx, cfg.Pages, &row, pages, rep); err != nil {
			return nil, fmt.Errorf("%s: %w", row.Label, err)
		}
		rep.Holders = append(rep.Holders, row)
	}

	// Balance pages of the owners with the most mints.
	say("balances: measuring")
	rep.Balances = PageRow{Label: "balances by owner"}
	owner := func(i int) [32]byte { return owners[i%len(owners)] }
	balPages := map[string]func(ctx context.Context, i int) ([]Holder, error){
		"engine": func(ctx context.Context, i int) ([]Holder, error) { return daschBalances(ctx, s, owner(i)) },
		"http":   func(ctx context.Context, i int) ([]Holder, error) { return rpc.balances(ctx, owner(i)) },
	}
	if pc != nil {
		balPages["pg"] = func(ctx context.Context, i int) ([]Holder, error) { return pgOwnerBalances(ctx, pc, owner(i)) }
	}
	if err := measureIndexed(ctx, cfg.Pages, &rep.Balances, balPages, rep, len(owners)); err != nil {
		return nil, fmt.Errorf("balances: %w", err)
	}

	// The same pages from many clients at once.
	if len(cursors) > 0 {
		say("holders: %d concurrent clients", cfg.Clients)
		rep.HoldersConc = PageRow{Label: fmt.Sprintf("holders, %d clients", cfg.Clients)}
		cur := func(i int) *HolderCursor { return cursors[i%len(cursors)] }
		if err := measureConcurrent(ctx, cfg, pg, &rep.HoldersConc,
			func(ctx context.Context, i int) error { _, err := rpc.holders(ctx, mint, cur(i)); return err },
			func(ctx context.Context, c *pgx.Conn, i int) error {
				_, err := pgHolders(ctx, c, mint, cur(i), false)
				return err
			}); err != nil {
			return nil, err
		}
	}
	say("balances: %d concurrent clients", cfg.Clients)
	rep.BalancesConc = PageRow{Label: fmt.Sprintf("balances, %d clients", cfg.Clients)}
	if err := measureConcurrent(ctx, cfg, pg, &rep.BalancesConc,
		func(ctx context.Context, i int) error { _, err := rpc.balances(ctx, owner(i)); return err },
		func(ctx context.Context, c *pgx.Conn, i int) error {
			_, err := pgOwnerBalances(ctx, c, owner(i))
			return err
		}); err != nil {
		return nil, err
	}
	rep.Elapsed = time.Since(began)
	say("done")
	return rep, nil
}

// measurePages checks that every path returns the same page, then times
// each path in turn.
func measurePages(ctx context.Context, b Budget, row *PageRow, pages map[string]func(context.Context) ([]Holder, error), rep *Report) error {
	indexed := make(map[string]func(context.Context, int) ([]Holder, error), len(pages))
	for k, f := range pages {
		indexed[k] = func(ctx context.Context, _ int) ([]Holder, error) { return f(ctx) }
	}
	return measureIndexed(ctx, b, row, indexed, rep, 1)
}

// pathOrder fixes the order paths are verified against and measured in.
var pathOrder = []string{"engine", "http", "pg", "pg-row"}

// measureIndexed is measurePages for requests that vary with their index
// i; the first distinct requests are compared across paths.
func measureIndexed(ctx context.Context, b Budget, row *PageRow, pages map[string]func(context.Context, int) ([]Holder, error), rep *Report, distinct int) error {
	row.Verified = true
	for i := 0; i < distinct; i++ {
		var ref []Holder
		var refName string
		for _, name := range pathOrder {
			f, ok := pages[name]
			if !ok {
				continue
			}
			got, err := f(ctx, i)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if ref == nil {
				ref, refName = got, name
				if len(ref) == 0 {
					return fmt.Errorf("%s: empty page", name)
				}
				continue
			}
			if d := diffPages(ref, got); d != "" {
				row.Verified = false
				rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("%s (request %d): %s vs %s: %s", row.Label, i, refName, name, d))
			}
		}
	}
	for _, name := range pathOrder {
		f, ok := pages[name]
		if !ok {
			continue
		}
		s, err := sequential(ctx, b, func(ctx context.Context, i int) error { _, err := f(ctx, i); return err })
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		switch name {
		case "engine":
			row.SQL = s
		case "http":
			row.HTTP = s
		case "pg":
			row.PG = s
		case "pg-row":
			row.PGRow = s
		}
	}
	return nil
}

// measureConcurrent runs the dasch and PostgreSQL request streams from
// cfg.Clients clients each, one system at a time.
func measureConcurrent(ctx context.Context, cfg Config, pg *pgref.Server, row *PageRow,
	dasch func(ctx context.Context, i int) error, ref func(ctx context.Context, c *pgx.Conn, i int) error) error {
	s, err := concurrent(ctx, cfg.Clients, cfg.Concurrent, func(ctx context.Context, _, i int) error { return dasch(ctx, i) })
	if err != nil {
		return fmt.Errorf("%s, dasch: %w", row.Label, err)
	}
	row.HTTP = s
	if pg == nil {
		return nil
	}
	conns := make([]*pgx.Conn, cfg.Clients)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.WithoutCancel(ctx))
			}
		}
	}()
	for i := range conns {
		c, err := pgx.Connect(ctx, pg.DSN())
		if err != nil {
			return err
		}
		conns[i] = c
	}
	s, err = concurrent(ctx, cfg.Clients, cfg.Concurrent, func(ctx context.Context, w, i int) error { return ref(ctx, conns[w], i) })
	if err != nil {
		return fmt.Errorf("%s, postgres: %w", row.Label, err)
	}
	row.PG = s
	return nil
}

// startServer serves the Photon methods over s on a loopback port with a
// real api key, wired as `dasch serve` wires them, so a page is timed the
// way a client sees it.
func startServer(ctx context.Context, s store.Store, logTo io.Writer) (addr, key string, stop func(), err error) {
	key, _, err = auth.CreateKey(ctx, s, "bench")
	if err != nil {
		return "", "", nil, err
	}
	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return "", "", nil, err
	}
	log := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelWarn}))
	reg := server.NewRegistry()
	photon.Register(reg, photon.Deps{Store: s, Slots: qc.NewSlotCache(s, 200*time.Millisecond), Logger: log})
	srv, err := server.New(server.Config{
		Listen:         "127.0.0.1:0",
		RequestTimeout: time.Minute,
		Logger:         log,
	}, reg, keys, nil)
	if err != nil {
		return "", "", nil, err
	}
	if err := srv.Listen(); err != nil {
		return "", "", nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	return srv.Addr(), key, func() { cancel(); <-done }, nil
}

// diffPages describes the first difference between two pages, "" if none.
func diffPages(a, b []Holder) string {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("item %d: %s %d vs %s %d", i, b58(a[i].Key), a[i].Balance, b58(b[i].Key), b[i].Balance)
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d items vs %d", len(a), len(b))
	}
	return ""
}

// EnvAccounts scales the benchmark without a flag, e.g. for `make bench`.
const EnvAccounts = "DASCH_BENCH_ACCOUNTS"

// AccountsFromEnv returns $DASCH_BENCH_ACCOUNTS, or def when it is unset.
func AccountsFromEnv(def int) (int, error) {
	v := os.Getenv(EnvAccounts)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive number of token accounts", EnvAccounts, v)
	}
	return n, nil
}
