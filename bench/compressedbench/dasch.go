package compressedbench

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/bench/internal/scratch"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// daschTables are the tables the generated state is written to: every
// compressed-state table a token account reaches, decoded or derived.
func daschTables() []string {
	return []string{
		schema.TableCompressed, schema.TableCompressedByOwner, schema.TableTokenAccounts, schema.TableTokenByDelegate,
		schema.TableTokenBalances, schema.TableMintHolders,
		schema.TableCompressionSigs, schema.TableOwnerTxs, schema.TableTokenOwnerTxs, schema.TableTokenLedger,
		schema.TableTokenLedgerApplied,
	}
}

// insertJob is one record bound for one table.
type insertJob struct {
	table string
	rec   arrow.RecordBatch
}

// recordBytes is the size of a record's buffers: what an insert carries.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
	}
	return n
}

// IngestFigures is one system's load of the generated state.
type IngestFigures struct {
	Accounts, Holdings int
	Rows               int64 // rows written over all tables
	Tables             int   // dasch: the tables holding them
	Bytes              int64 // bytes handed to the engine (Arrow buffers or COPY rows)
	// Load is the time spent writing: store.Insert calls for dasch, COPY
	// for PostgreSQL. Generation and batch building are outside it.
	Load time.Duration
	// Index is PostgreSQL's index build plus VACUUM ANALYZE after COPY.
	Index time.Duration
	// AccountsTable is PostgreSQL's time, within Load and Index, spent on
	// its accounts table (COPY, indexes, the key referencing it).
	AccountsTable time.Duration
	// TxTables is PostgreSQL's time for Photon's transaction tables
	// (COPY, keys and indexes), outside Load and Index: the earlier runs'
	// reference did not write them. Rows, Bytes and DiskBytes leave them
	// out too.
	TxTables time.Duration
	TxRows   int64 // rows COPYed into the transaction tables
	// Settle is how long dasch's background merges ran on after the load.
	Settle time.Duration
	// CPU is the process's CPU time (user and system, every thread: the
	// engine's inserts, merges and state steps, and the Go side) during
	// dasch's Load. On a busy machine it varies less than the rate.
	CPU time.Duration
	// SystemCPU is the part of CPU spent in the kernel, and Faults the
	// minor page faults over the same time. The bench machine (a virtual
	// machine that hands freed memory back to its host) makes first
	// touches dear (docs/performance.md): reading them apart from the
	// CPU tells the machine's share from the ingest's own.
	SystemCPU time.Duration
	Faults    int64
	// Phases break dasch's Load down (see Phases).
	Phases Phases
	// Engine is what the engine counted doing during dasch's load.
	Engine EngineWork
	// Steps is how many state steps dasch's load ran over its Chunks:
	// fewer when the steps fell behind the inserts.
	Steps, Chunks int
	// PartSets is how many sets of parts (a part per table) the load
	// committed over its Chunks (see partSets).
	PartSets int
	// StepTail is how long the state steps ran on after the last chunk's
	// inserts ended: the part of Load the inserts did not overlap.
	StepTail time.Duration
	// Parts are dasch's active parts per table once merges settled.
	Parts map[string]int
	// DiskBytes is the size on disk of the loaded tables and indexes.
	DiskBytes int64
	Stats     Stats
}

// AccountsPerSec is the load rate in token accounts per second; for
// PostgreSQL it includes building the indexes.
func (f IngestFigures) AccountsPerSec() float64 {
	return float64(f.Accounts) / (f.Load + f.Index).Seconds()
}

// LeanAccountsPerSec is PostgreSQL's load rate without its accounts
// table: token_accounts and token_owner_balances only, the reference of
// earlier runs.
func (f IngestFigures) LeanAccountsPerSec() float64 {
	return float64(f.Accounts) / (f.Load + f.Index - f.AccountsTable).Seconds()
}

// TxAccountsPerSec is PostgreSQL's load rate with Photon's transaction
// tables as well, which dasch's signature tables and account rows match.
func (f IngestFigures) TxAccountsPerSec() float64 {
	return float64(f.Accounts) / (f.Load + f.Index + f.TxTables).Seconds()
}

// CopyAccountsPerSec is PostgreSQL's rate counting COPY alone.
func (f IngestFigures) CopyAccountsPerSec() float64 { return float64(f.Accounts) / f.Load.Seconds() }

// insertJobs runs the inserts with par workers; the first error wins.
func insertJobs(ctx context.Context, s arrowstore.Store, jobs []insertJob, par int) error {
	return parallel.Run(jobs, par, func(_ int, j insertJob) error {
		if err := s.Insert(ctx, j.table, j.rec); err != nil {
			return fmt.Errorf("insert into %s: %w", j.table, err)
		}
		return nil
	})
}

// narrowTable holds the engine's raw insert limit measurement.
const narrowTable = "bench_narrow_rows"

// narrowLimit measures the engine's raw insert rate on narrow rows
// (FixedString(32) key, UInt64), pre-built batches inserted par at a
// time: the ceiling of the engine for the narrowest keyed rows dasch
// stores, taken in the same run.
func narrowLimit(ctx context.Context, s arrowstore.Store, rows, batch, par int) (float64, error) {
	if err := s.Exec(ctx, "DROP TABLE IF EXISTS "+narrowTable+" SYNC", nil); err != nil {
		return 0, err
	}
	if err := s.Exec(ctx, "CREATE TABLE "+narrowTable+" (k FixedString(32), v UInt64) ENGINE = MergeTree ORDER BY k", nil); err != nil {
		return 0, err
	}
	defer scratch.Drop(ctx, s, narrowTable)
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrowbatch.PubkeyType()}, {Name: "v", Type: arrow.PrimitiveTypes.Uint64}}, nil)
	r := rand.New(rand.NewPCG(1, 2))
	var jobs []insertJob
	defer func() {
		for _, j := range jobs {
			j.rec.Release()
		}
	}()
	for left := rows; left > 0; left -= batch {
		n := min(batch, left)
		b := array.NewRecordBuilder(mem, sc)
		k, v := b.Field(0).(*array.FixedSizeBinaryBuilder), b.Field(1).(*array.Uint64Builder)
		k.Reserve(n)
		v.Reserve(n)
		var key [32]byte
		for i := 0; i < n; i++ {
			for w := 0; w < 4; w++ {
				binary.LittleEndian.PutUint64(key[8*w:], r.Uint64())
			}
			k.Append(key[:])
			v.UnsafeAppend(uint64(i))
		}
		jobs = append(jobs, insertJob{narrowTable, b.NewRecordBatch()})
		b.Release()
	}
	start := time.Now()
	if err := insertJobs(ctx, s, jobs, par); err != nil {
		return 0, err
	}
	return float64(rows) / time.Since(start).Seconds(), nil
}

// settle waits, up to limit, until no merge runs on the loaded tables, so
// queries are measured on the state ingest leaves once it is idle rather
// than while merges compete for the CPU. It returns the wait and the active
// parts per table.
func settle(ctx context.Context, s arrowstore.Store, limit time.Duration) (time.Duration, map[string]int, error) {
	start := time.Now()
	quiet := 0
	for time.Since(start) < limit && quiet < 3 {
		res, err := s.Query(ctx, "SELECT count() FROM system.merges WHERE database = currentDatabase()", nil)
		if err != nil {
			return 0, nil, err
		}
		if res.Rows[0][0].(uint64) == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	wait := time.Since(start)
	res, err := s.Query(ctx, `SELECT table, toUInt64(count()) FROM system.parts
		WHERE active AND database = currentDatabase() AND table IN {t:Array(String)} GROUP BY table`,
		store.Params{"t": chArray(daschTables())})
	if err != nil {
		return 0, nil, err
	}
	parts := map[string]int{}
	for _, r := range res.Rows {
		parts[r[0].(string)] = int(r[1].(uint64))
	}
	return wait, parts, nil
}

// daschDiskBytes is the compressed size of the loaded tables.
func daschDiskBytes(ctx context.Context, s arrowstore.Store) (int64, error) {
	res, err := s.Query(ctx, `SELECT toUInt64(sum(bytes_on_disk)) FROM system.parts
		WHERE active AND database = currentDatabase() AND table IN {t:Array(String)}`,
		store.Params{"t": chArray(daschTables())})
	if err != nil {
		return 0, err
	}
	return int64(res.Rows[0][0].(uint64)), nil
}

// chArray writes a ClickHouse Array(String) parameter value.
func chArray(xs []string) string {
	b := []byte{'['}
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\'')
		b = append(b, x...) // table names: no quotes to escape
		b = append(b, '\'')
	}
	return string(append(b, ']'))
}

// Holder is one entry of a holders page; Balance is one of a balances page
// (Key is then the mint).
type Holder struct {
	Key     [32]byte
	Balance uint64
}

// HolderCursor is the (balance, owner) of the last holder before a page.
type HolderCursor struct {
	Balance uint64
	Owner   [32]byte
}

// daschHolderAt reads the holder at 0-based position pos of mint's
// holders (balance DESC, owner DESC): the cursor of the page after it.
func daschHolderAt(ctx context.Context, s arrowstore.Store, mint [32]byte, pos int) (HolderCursor, error) {
	res, err := s.Query(ctx, `SELECT balance, owner FROM mint_holders FINAL
		WHERE mint = {m:FixedString(32)} AND is_deleted = 0
		ORDER BY balance DESC, owner DESC LIMIT 1 OFFSET {o:UInt64}`,
		store.Params{"m": string(mint[:]), "o": strconv.Itoa(pos)})
	if err != nil {
		return HolderCursor{}, err
	}
	if len(res.Rows) != 1 {
		return HolderCursor{}, fmt.Errorf("mint has no holder at position %d", pos)
	}
	var c HolderCursor
	c.Balance = res.Rows[0][0].(uint64)
	copy(c.Owner[:], res.Rows[0][1].(string))
	return c, nil
}

// daschHolderCount counts the live holders of mint.
func daschHolderCount(ctx context.Context, s arrowstore.Store, mint [32]byte) (int, error) {
	res, err := s.Query(ctx, `SELECT count() FROM mint_holders FINAL WHERE mint = {m:FixedString(32)} AND is_deleted = 0`,
		store.Params{"m": string(mint[:])})
	if err != nil {
		return 0, err
	}
	return int(res.Rows[0][0].(uint64)), nil
}

// daschHolders is the holders page after cur (nil: the first page) from
// the query layer the API calls, without HTTP or JSON.
func daschHolders(ctx context.Context, s arrowstore.Store, mint [32]byte, cur *HolderCursor) ([]Holder, error) {
	page := compressed.HolderPage{Limit: pageLimit}
	if cur != nil {
		page.After = &compressed.HolderCursor{Balance: cur.Balance, Owner: compressed.Key(cur.Owner)}
	}
	items, err := compressed.MintHolders(ctx, s, compressed.Key(mint), page)
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(items))
	for i, it := range items {
		out[i] = Holder{Key: it.Owner, Balance: it.Balance}
	}
	return out, nil
}

// daschBalances is the first balances page of owner from the query layer.
// daschTokens is owner's first page of token accounts as (hash, amount).
func daschTokens(ctx context.Context, s arrowstore.Store, owner [32]byte) ([]Holder, error) {
	items, err := compressed.TokenAccountsByOwner(ctx, s, compressed.Key(owner), compressed.TokenPage{Limit: pageLimit})
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(items))
	for i, it := range items {
		out[i] = Holder{Key: it.Hash, Balance: it.Amount}
	}
	return out, nil
}

func daschBalances(ctx context.Context, s arrowstore.Store, owner [32]byte) ([]Holder, error) {
	items, err := compressed.TokenBalancesByOwner(ctx, s, compressed.Key(owner), compressed.BalancePage{Limit: pageLimit})
	if err != nil {
		return nil, err
	}
	out := make([]Holder, len(items))
	for i, it := range items {
		out[i] = Holder{Key: it.Mint, Balance: it.Balance}
	}
	return out, nil
}

// usage is what the process has used so far, every thread: CPU time, the
// part of it spent in the kernel, and minor page faults.
type usage struct {
	CPU, System time.Duration
	Faults      int64
}

func processUsage() (usage, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return usage{}, fmt.Errorf("getrusage: %w", err)
	}
	return usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), System: time.Duration(ru.Stime.Nano()), Faults: ru.Minflt}, nil
}

// add adds what was used between from and to.
func (f *IngestFigures) add(from, to usage) {
	f.CPU += to.CPU - from.CPU
	f.SystemCPU += to.System - from.System
	f.Faults += to.Faults - from.Faults
}
