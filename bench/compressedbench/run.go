// Package compressedbench benchmarks dasch's compressed-state read paths and
// ingest against a PostgreSQL reference holding the same state in
// Photon's schema, measured in the same run so the ratios compare like
// with like on one machine.
package compressedbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/bench/internal/measure"
	"github.com/dasch-labs/dasch/bench/pgref"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/hotindex"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// DefaultChunkAccounts is Config.ChunkAccounts' default: a bulk load's
// batch (dasch ingest --batch-rows), 10x the pipeline's default.
const DefaultChunkAccounts = 500_000

// Config tunes a run. Zero values take the defaults noted.
type Config struct {
	Gen GenConfig
	// ChunkAccounts is the accounts per generated chunk, which is one
	// record per table for dasch (appended to the table's part, see
	// PartChunks) and one COPY per table and connection for PostgreSQL.
	// Default DefaultChunkAccounts.
	ChunkAccounts int
	// Parallel is the number of concurrent inserts or COPY streams.
	// Default 2.
	Parallel int
	// PartChunks is the chunks each part of dasch's load holds: a table's
	// records go to one INSERT (arrowstore.PartWriter) committed every
	// PartChunks chunks. Default DefaultPartChunks; 1, a part per chunk.
	PartChunks int
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
	// Transfers is the number of transfer transactions ingested after the
	// pages are measured, each spending one stored account (see
	// TransferFigures). Default 1% of the accounts, at most 50,000
	// (PostgreSQL applies a few hundred a second at 20M); negative: none.
	Transfers int
	// LiveSlots is the number of slots of transfersPerSlot transfers
	// ingested one at a time after the transfers, each stepped before the
	// next (see liveSlots), in three series: with the state step's balance
	// copy, scanning token_balances, and with the copy again. Default 20;
	// negative: none.
	LiveSlots int
	// IngestProfile, when set, receives a CPU profile (pprof) of the end
	// to end ingest alone: Go code, the engine's work on the threads that
	// call it (under runtime.cgocall) and its own threads (external code).
	IngestProfile io.Writer
	// SettleLimit bounds the wait for dasch's merges after the load.
	// Default 5 minutes.
	SettleLimit time.Duration
	// NoHotIndex serves pages from the store, as `dasch serve
	// --hot-index=false` does; by default the server answers holders and
	// balances from the in-memory index, as `dasch serve` does.
	NoHotIndex bool
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
}

func (c *Config) applyDefaults() {
	c.Gen.applyDefaults()
	if c.ChunkAccounts <= 0 {
		c.ChunkAccounts = DefaultChunkAccounts
	}
	if c.Transfers == 0 {
		c.Transfers = min(c.Gen.Accounts/100, 50_000)
	}
	if c.LiveSlots == 0 {
		c.LiveSlots = 20
	}
	if c.Parallel <= 0 {
		c.Parallel = 2
	}
	if c.PartChunks <= 0 {
		c.PartChunks = DefaultPartChunks
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
// Photon's query and, for holders, PostgreSQL with the row-value keyset;
// for token accounts, PostgreSQL reading token_accounts alone (PGLean).
type PageRow struct {
	Label                          string
	HTTP, Query, PG, PGRow, PGLean Series
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
	// SameRows is the raw insert of the rows Dasch stores, pre-built.
	Dasch, SameRows, PG IngestFigures
	// Transfers is the transfer phase, after the pages.
	Transfers TransferFigures

	Holders  []PageRow
	Balances PageRow
	// TokensFew and TokensWhale are token accounts by owner (no target).
	TokensFew, TokensWhale PageRow
	HoldersConc            PageRow
	BalancesConc           PageRow

	// LoadBefore is the machine's 1-minute load average when the run
	// started: other work on the machine skews both systems.
	LoadBefore string
	// Allocator is the engine's allocator options as it runs with them
	// (see chdb.DefaultAllocator), "?" where it does not say.
	Allocator string

	// Mismatches lists pages that differed between paths.
	Mismatches []string

	// Started is when the run began; Memory is the processes' resident
	// memory at its end (benchjson's names: bench, postgres).
	Started time.Time
	Memory  map[string]benchjson.Memory
}

// Run generates the state, loads it into s (migrated and empty) and, when
// cfg.Postgres is set, into a fresh PostgreSQL, then measures both.
func Run(ctx context.Context, s arrowstore.Store, cfg Config) (*Report, error) {
	cfg.applyDefaults()
	plan, err := NewPlan(cfg.Gen)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, s: s, plan: plan, began: time.Now(), step: compressedstate.NewStateStep(),
		rep: &Report{Cfg: cfg, CPUs: runtime.NumCPU(), Postgres: cfg.Postgres, LoadBefore: loadAvg(), Started: time.Now()}}
	defer r.close(ctx)
	r.rep.Allocator = allocatorOptions(ctx, s)
	if err := r.load(ctx); err != nil {
		return nil, err
	}
	mint, owners, err := r.subjects(ctx)
	if err != nil {
		return nil, err
	}
	addr, key, stop, err := startServer(ctx, s, !cfg.NoHotIndex, r.say)
	if err != nil {
		return nil, err
	}
	defer stop()
	r.rpc = newRPCClient(addr, key, cfg.Clients+8)
	r.say("dasch: serving JSON-RPC on %s", addr)
	r.flushDirty("the pages")
	if r.pg != nil {
		if r.pc, err = pgx.Connect(ctx, r.pg.DSN()); err != nil {
			return nil, err
		}
	}
	cursors, err := r.holderPages(ctx, mint)
	if err != nil {
		return nil, err
	}
	if err := r.balancePages(ctx, owners); err != nil {
		return nil, err
	}
	if err := r.tokenPages(ctx, mint, owners); err != nil {
		return nil, err
	}
	if err := r.concurrentPages(ctx, mint, cursors, owners); err != nil {
		return nil, err
	}
	if cfg.Transfers > 0 {
		// After the pages: the transfers change the state they read.
		r.flushDirty("the transfers")
		r.say("dasch: %d transfers, each spending a stored account and creating two", cfg.Transfers)
		if r.rep.Transfers, err = runTransfers(ctx, s, r.step, r.pc, plan, r.rep.Dasch.Stats, cfg.Transfers, cfg.LiveSlots, cfg.transferChunk(), cfg.Parallel); err != nil {
			return nil, err
		}
		tr := r.rep.Transfers
		r.say("dasch: transfers ingested in %.1fs (postgres %.1fs)", tr.Load.Seconds(), tr.PG.Seconds())
		for _, l := range tr.Live {
			r.say("dasch: live slots of %d transfers, %s: p50 / p99 %s ms (warmup slot %s ms)",
				transfersPerSlot, l.Name, measure.Lat(l.Series), measure.MS(l.Warmup))
		}
	}
	r.rep.Elapsed = time.Since(r.began)
	r.rep.Memory = r.memory()
	r.say("done")
	return r.rep, nil
}

// runner carries one run's state from phase to phase.
type runner struct {
	cfg Config
	s   arrowstore.Store
	// step is the state step of every ingest of the run, as one indexer
	// process keeps it.
	step  *compressedstate.StateStep
	plan  *Plan
	rep   *Report
	began time.Time
	pg    *pgref.Server
	pc    *pgx.Conn // sequential PostgreSQL pages
	rpc   *rpcClient
}

func (r *runner) say(format string, a ...any) {
	fmt.Fprintf(r.cfg.Progress, "[%6.1fs] "+format+"\n", append([]any{time.Since(r.began).Seconds()}, a...)...)
}

// memory samples this process's and the reference server's resident
// memory while both still run.
func (r *runner) memory() map[string]benchjson.Memory {
	m := map[string]benchjson.Memory{}
	benchjson.Sample(m, "bench", benchjson.SelfMemory)
	if r.pg != nil {
		benchjson.Sample(m, "postgres", func() (benchjson.Memory, error) { return benchjson.TreeMemory(r.pg.PID()) })
	}
	return m
}

func (r *runner) close(ctx context.Context) {
	if r.pc != nil {
		r.pc.Close(context.WithoutCancel(ctx))
	}
	if r.pg != nil {
		if err := r.pg.Stop(); err != nil {
			r.say("postgres: %v", err)
		}
	}
}

// load writes the state into PostgreSQL, then into dasch. PostgreSQL goes
// first, on an otherwise idle machine: dasch's background merges would
// slow its load.
func (r *runner) load(ctx context.Context) error {
	cfg, rep := r.cfg, r.rep
	var err error
	if cfg.Postgres {
		r.say("postgres: starting")
		if r.pg, err = pgref.Start(ctx, pgref.Options{BinDir: cfg.PGBinDir, Settings: pgSettings()}); err != nil {
			return err
		}
		for _, d := range r.pg.Removed {
			r.say("postgres: removed %s, left by a run whose process is gone", d)
		}
		r.say("postgres: loading %d token accounts (COPY, %d streams)", cfg.Gen.Accounts, cfg.Parallel)
		if rep.PG, err = loadPostgres(ctx, r.pg.DSN(), r.plan, cfg.ChunkAccounts, cfg.Parallel); err != nil {
			return err
		}
		r.say("postgres: COPY %.1fs, indexes+analyze %.1fs", rep.PG.Load.Seconds(), rep.PG.Index.Seconds())
	}
	r.flushDirty("the raw insert limit")
	r.say("dasch: raw insert limit, %d narrow rows", cfg.NarrowRows)
	if rep.NarrowRowsPerSec, err = narrowLimit(ctx, r.s, cfg.NarrowRows, 1_000_000, cfg.Parallel); err != nil {
		return fmt.Errorf("narrow insert limit: %w", err)
	}
	r.flushDirty("the same rows")
	r.say("dasch: raw insert of the same rows, pre-built, into copies of the tables")
	work, err := withEngineWork(ctx, r.s, func() (err error) {
		rep.SameRows, err = sameRowsLimit(ctx, r.s, r.plan, cfg.ChunkAccounts, cfg.Parallel, cfg.PartChunks)
		return err
	})
	if err != nil {
		return err
	}
	rep.SameRows.Engine = work
	r.say("dasch: same rows inserted in %.1fs, CPU %.1fs (engine, s: %s)", rep.SameRows.Load.Seconds(), rep.SameRows.CPU.Seconds(), work)
	r.flushDirty("the ingest")
	r.say("dasch: ingesting %d token accounts end to end (decoder, %d insert streams, state step)", cfg.Gen.Accounts, cfg.Parallel)
	if cfg.IngestProfile != nil {
		if err := pprof.StartCPUProfile(cfg.IngestProfile); err != nil {
			return fmt.Errorf("ingest profile: %w", err)
		}
	}
	work, err = withEngineWork(ctx, r.s, func() (err error) {
		rep.Dasch, err = loadDasch(ctx, r.s, r.step, r.plan, cfg.ChunkAccounts, cfg.Parallel, cfg.PartChunks)
		return err
	})
	if cfg.IngestProfile != nil {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	rep.Dasch.Engine = work
	r.say("dasch: ingest %.1fs, CPU %.1fs (state steps %.1fs of it after the last insert; engine, s: %s); waiting for merges",
		rep.Dasch.Load.Seconds(), rep.Dasch.CPU.Seconds(), rep.Dasch.StepTail.Seconds(), work)
	r.say("dasch: ingest phases, s: %s", rep.Dasch.Phases.list(time.Second, 1, 0.5))
	if rep.Dasch.Settle, rep.Dasch.Parts, err = settle(ctx, r.s, cfg.SettleLimit); err != nil {
		return err
	}
	if rep.Dasch.DiskBytes, err = daschDiskBytes(ctx, r.s); err != nil {
		return err
	}
	r.say("dasch: merges settled after %.1fs, parts %v", rep.Dasch.Settle.Seconds(), rep.Dasch.Parts)
	return nil
}

// subjects picks what the pages read: the mint with the most holders, and
// the owners with the most mints.
func (r *runner) subjects(ctx context.Context) (mint [32]byte, owners [][32]byte, err error) {
	st, rep := r.rep.Dasch.Stats, r.rep
	largest := 0
	for m, h := range st.HoldersByMint {
		if h > st.HoldersByMint[largest] {
			largest = m
		}
	}
	mint = r.plan.MintKey(largest)
	rep.LargestMint = b58(mint)
	rep.LargestHolders = st.HoldersByMint[largest]
	if n, err := daschHolderCount(ctx, r.s, mint); err != nil {
		return mint, nil, err
	} else if n != rep.LargestHolders {
		return mint, nil, fmt.Errorf("dasch holds %d holders of the largest mint, generated %d", n, rep.LargestHolders)
	}
	whales := make([]int, len(st.MintsByWhale))
	for j := range whales {
		whales[j] = j
	}
	slices.SortStableFunc(whales, func(a, b int) int { return st.MintsByWhale[b] - st.MintsByWhale[a] })
	whales = whales[:min(16, len(whales))]
	if len(whales) == 0 {
		return mint, nil, errors.New("no whale owners to page balances of: set Gen.Whales")
	}
	for _, j := range whales {
		owners = append(owners, r.plan.OwnerKey(r.plan.Whale(j)))
	}
	rep.BalanceOwners = len(owners)
	rep.OwnerMintsMax, rep.OwnerMintsMin = st.MintsByWhale[whales[0]], st.MintsByWhale[whales[len(whales)-1]]
	return mint, owners, nil
}

// holderPages measures the holder pages of mint at each depth and returns
// the cursors of the depths measured (nil for depth 0).
func (r *runner) holderPages(ctx context.Context, mint [32]byte) ([]*HolderCursor, error) {
	var cursors []*HolderCursor
	for _, d := range r.cfg.Depths {
		row := PageRow{Label: "holders, depth " + measure.Count(d)}
		if d+pageLimit > r.rep.LargestHolders {
			row.Skip = fmt.Sprintf("the largest mint has %s holders: no full page at depth %s", measure.Count(r.rep.LargestHolders), measure.Count(d))
			r.rep.Holders = append(r.rep.Holders, row)
			continue
		}
		cur, err := r.cursorAt(ctx, mint, d)
		if err != nil {
			return nil, err
		}
		cursors = append(cursors, cur)
		r.say("holders depth %d: measuring", d)
		paths := []path{
			{"query layer", &row.Query, func(ctx context.Context, _ int) ([]Holder, error) { return daschHolders(ctx, r.s, mint, cur) }, nil},
			{"http", &row.HTTP, func(ctx context.Context, _ int) ([]Holder, error) { return r.rpc.holders(ctx, mint, cur) },
				func(ctx context.Context, _ int) error { return r.rpc.postHolders(ctx, mint, cur) }},
		}
		if r.pc != nil {
			paths = append(paths,
				path{"postgres", &row.PG, func(ctx context.Context, _ int) ([]Holder, error) { return pgHolders(ctx, r.pc, mint, cur, false) }, nil},
				path{"postgres row-value", &row.PGRow, func(ctx context.Context, _ int) ([]Holder, error) { return pgHolders(ctx, r.pc, mint, cur, true) }, nil})
		}
		if err := r.measure(ctx, &row, paths, 1); err != nil {
			return nil, err
		}
		r.rep.Holders = append(r.rep.Holders, row)
	}
	return cursors, nil
}

// cursorAt reads the cursor of the page at depth d once, outside any
// timing, from dasch, checking PostgreSQL has the same holder there.
func (r *runner) cursorAt(ctx context.Context, mint [32]byte, d int) (*HolderCursor, error) {
	if d == 0 {
		return nil, nil
	}
	c, err := daschHolderAt(ctx, r.s, mint, d-1)
	if err != nil {
		return nil, err
	}
	if r.pc != nil {
		pcur, err := pgHolderAt(ctx, r.pc, mint, d-1)
		if err != nil {
			return nil, err
		}
		if pcur != c {
			r.rep.Mismatches = append(r.rep.Mismatches, fmt.Sprintf("holder at depth %d: dasch %d/%s, postgres %d/%s",
				d, c.Balance, b58(c.Owner), pcur.Balance, b58(pcur.Owner)))
		}
	}
	return &c, nil
}

// balancePages measures the first balances page of owners, in turn.
func (r *runner) balancePages(ctx context.Context, owners [][32]byte) error {
	r.say("balances: measuring")
	row := &r.rep.Balances
	row.Label = "balances by owner"
	owner := func(i int) [32]byte { return owners[i%len(owners)] }
	paths := []path{
		{"query layer", &row.Query, func(ctx context.Context, i int) ([]Holder, error) { return daschBalances(ctx, r.s, owner(i)) }, nil},
		{"http", &row.HTTP, func(ctx context.Context, i int) ([]Holder, error) { return r.rpc.balances(ctx, owner(i)) },
			func(ctx context.Context, i int) error { return r.rpc.postBalances(ctx, owner(i)) }},
	}
	if r.pc != nil {
		paths = append(paths, path{"postgres", &row.PG, func(ctx context.Context, i int) ([]Holder, error) { return pgOwnerBalances(ctx, r.pc, owner(i)) }, nil})
	}
	return r.measure(ctx, row, paths, len(owners))
}

// tokenPages measures the first page of token accounts by owner for
// owners with a few accounts (holders from the largest mint's first
// page) and for the whales, which fill a page.
func (r *runner) tokenPages(ctx context.Context, mint [32]byte, whales [][32]byte) error {
	top, err := r.rpc.holders(ctx, mint, nil)
	if err != nil {
		return fmt.Errorf("token pages: owners: %w", err)
	}
	var few [][32]byte
	for i := 0; i < len(top) && len(few) < 16; i += max(1, len(top)/16) {
		few = append(few, top[i].Key)
	}
	for _, set := range []struct {
		row    *PageRow
		label  string
		owners [][32]byte
	}{{&r.rep.TokensFew, "token accounts by owner, few", few}, {&r.rep.TokensWhale, "token accounts by owner, whale", whales}} {
		r.say("%s: measuring", set.label)
		owners := set.owners
		owner := func(i int) [32]byte { return owners[i%len(owners)] }
		set.row.Label = set.label
		paths := []path{
			{"query layer", &set.row.Query, func(ctx context.Context, i int) ([]Holder, error) { return daschTokens(ctx, r.s, owner(i)) }, nil},
			{"http", &set.row.HTTP, func(ctx context.Context, i int) ([]Holder, error) { return r.rpc.tokens(ctx, owner(i)) },
				func(ctx context.Context, i int) error { return r.rpc.postTokens(ctx, owner(i)) }},
		}
		if r.pc != nil {
			paths = append(paths,
				path{"postgres", &set.row.PG, func(ctx context.Context, i int) ([]Holder, error) { return pgOwnerTokens(ctx, r.pc, owner(i), false) }, nil},
				path{"postgres token_accounts alone", &set.row.PGLean, func(ctx context.Context, i int) ([]Holder, error) {
					return pgOwnerTokens(ctx, r.pc, owner(i), true)
				}, nil})
		}
		if err := r.measure(ctx, set.row, paths, len(owners)); err != nil {
			return err
		}
	}
	return nil
}

// concurrentPages runs the holder pages (cycling over the depths) and the
// balance pages from cfg.Clients clients at once.
func (r *runner) concurrentPages(ctx context.Context, mint [32]byte, cursors []*HolderCursor, owners [][32]byte) error {
	if len(cursors) > 0 {
		r.say("holders: %d concurrent clients", r.cfg.Clients)
		r.rep.HoldersConc.Label = fmt.Sprintf("holders, %d clients", r.cfg.Clients)
		cur := func(i int) *HolderCursor { return cursors[i%len(cursors)] }
		if err := r.concurrently(ctx, &r.rep.HoldersConc,
			func(ctx context.Context, i int) error { return r.rpc.postHolders(ctx, mint, cur(i)) },
			func(ctx context.Context, c *pgx.Conn, i int) error {
				_, err := pgHolders(ctx, c, mint, cur(i), false)
				return err
			}); err != nil {
			return err
		}
	}
	r.say("balances: %d concurrent clients", r.cfg.Clients)
	r.rep.BalancesConc.Label = fmt.Sprintf("balances, %d clients", r.cfg.Clients)
	owner := func(i int) [32]byte { return owners[i%len(owners)] }
	return r.concurrently(ctx, &r.rep.BalancesConc,
		func(ctx context.Context, i int) error { return r.rpc.postBalances(ctx, owner(i)) },
		func(ctx context.Context, c *pgx.Conn, i int) error {
			_, err := pgOwnerBalances(ctx, c, owner(i))
			return err
		})
}

// path is one way to get a page: request i of a series. timed, when set,
// is what the series times instead of page: for HTTP, the round trip up
// to the whole answer received, without the client decoding it (page
// decodes and checks it before the timing).
type path struct {
	name  string
	dst   *Series
	page  func(ctx context.Context, i int) ([]Holder, error)
	timed func(ctx context.Context, i int) error
}

// measure checks that every path returns the same pages for the first
// distinct requests, then times each path in turn, one request at a time.
func (r *runner) measure(ctx context.Context, row *PageRow, paths []path, distinct int) error {
	row.Verified = true
	for i := 0; i < distinct; i++ {
		var ref []Holder
		for j, p := range paths {
			got, err := p.page(ctx, i)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", row.Label, p.name, err)
			}
			if j == 0 {
				if ref = got; len(ref) == 0 {
					return fmt.Errorf("%s, %s: empty page", row.Label, p.name)
				}
				continue
			}
			if d := diffPages(ref, got); d != "" {
				row.Verified = false
				r.rep.Mismatches = append(r.rep.Mismatches, fmt.Sprintf("%s (request %d): %s vs %s: %s", row.Label, i, paths[0].name, p.name, d))
			}
		}
	}
	for _, p := range paths {
		timed := p.timed
		if timed == nil {
			timed = func(ctx context.Context, i int) error { _, err := p.page(ctx, i); return err }
		}
		s, err := sequential(ctx, r.cfg.Pages, timed)
		if err != nil {
			return fmt.Errorf("%s, %s: %w", row.Label, p.name, err)
		}
		*p.dst = s
	}
	return nil
}

// concurrently runs the dasch and PostgreSQL request streams from
// cfg.Clients clients each, one system at a time; each PostgreSQL client
// has its own connection, as each HTTP client has its own.
func (r *runner) concurrently(ctx context.Context, row *PageRow,
	dasch func(ctx context.Context, i int) error, ref func(ctx context.Context, c *pgx.Conn, i int) error) error {
	s, err := concurrent(ctx, r.cfg.Clients, r.cfg.Concurrent, func(ctx context.Context, _, i int) error { return dasch(ctx, i) })
	if err != nil {
		return fmt.Errorf("%s, dasch: %w", row.Label, err)
	}
	row.HTTP = s
	if r.pg == nil {
		return nil
	}
	conns := make([]*pgx.Conn, r.cfg.Clients)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.WithoutCancel(ctx))
			}
		}
	}()
	for i := range conns {
		if conns[i], err = pgx.Connect(ctx, r.pg.DSN()); err != nil {
			return err
		}
	}
	s, err = concurrent(ctx, r.cfg.Clients, r.cfg.Concurrent, func(ctx context.Context, w, i int) error { return ref(ctx, conns[w], i) })
	if err != nil {
		return fmt.Errorf("%s, postgres: %w", row.Label, err)
	}
	row.PG = s
	return nil
}

// startServer serves the Photon methods over s on a loopback port with a
// real api key, wired as `dasch serve` wires them, so a page is timed the
// way a client sees it.
func startServer(ctx context.Context, s arrowstore.Store, hot bool, say func(string, ...any)) (addr, key string, stop func(), err error) {
	key, _, err = auth.CreateKey(ctx, s, "bench")
	if err != nil {
		return "", "", nil, err
	}
	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		return "", "", nil, err
	}
	log := slog.New(slog.NewTextHandler(sayWriter(say), &slog.HandlerOptions{Level: slog.LevelWarn}))
	sctx, cancel := context.WithCancel(ctx)
	mo := methods.Options{Methods: methods.Photon, Store: s, Slots: checkpoint.NewSlotCache(s, 200*time.Millisecond), Logger: log}
	if hot {
		x, took, err := hotindex.Open(sctx, s, hotindex.DefaultBalanceBudget, hotindex.DefaultSyncInterval, func(err error) { log.Warn("hot index sync failed", "err", err) })
		if err != nil {
			cancel()
			return "", "", nil, err
		}
		st := x.Stats()
		say("dasch: hot index: %d balances (%d owners, %d mints, ~%d MiB, %.1f B/balance, %d/%d chunks) loaded in %.1fs",
			st.Entries, st.Owners, st.Mints, st.Bytes>>20, float64(st.Bytes)/float64(max(1, st.Entries)), st.HeldChunks, st.Chunks, took.Seconds())
		mo.Hot = x
		tx, took, err := hotindex.OpenTokens(sctx, s, hotindex.DefaultTokenBudget, hotindex.DefaultSyncInterval, func(err error) { log.Warn("token index sync failed", "err", err) })
		if err != nil {
			cancel()
			return "", "", nil, err
		}
		ts := tx.Stats()
		say("dasch: token index: %d accounts (%d owners, ~%d MiB, %.1f B/account, complete %v) loaded in %.1fs",
			ts.Accounts, ts.Owners, ts.Bytes>>20, float64(ts.Bytes)/float64(max(1, ts.Accounts)), ts.Complete, took.Seconds())
		mo.HotTokens = tx
	}
	srv, err := server.New(server.Config{
		Listen:         "127.0.0.1:0",
		RequestTimeout: time.Minute,
		Logger:         log,
	}, methods.New(mo), keys, nil)
	if err != nil {
		cancel()
		return "", "", nil, err
	}
	if err := srv.Listen(); err != nil {
		cancel()
		return "", "", nil, err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	return srv.Addr(), key, func() { cancel(); <-done }, nil
}

// sayWriter sends the server's log lines to the progress output.
type sayWriter func(string, ...any)

func (w sayWriter) Write(p []byte) (int, error) {
	w("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
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

// loadAvg is the 1-minute load average, "?" where /proc is unavailable.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// allocatorOptions reads the options the engine's allocator was started
// with from its statistics (the line of the environment variable it
// reads, which the embedded store sets); "?" where the engine does not
// say.
func allocatorOptions(ctx context.Context, s arrowstore.Store) string {
	res, err := s.Query(ctx, "SELECT * FROM system.jemalloc_stats", nil)
	if err != nil || len(res.Rows) == 0 || len(res.Rows[0]) == 0 {
		return "?"
	}
	stats, _ := res.Rows[0][0].(string)
	for _, line := range strings.Split(stats, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Environment variable MALLOC_CONF:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
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
