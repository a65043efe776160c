package compressedbench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/bench/internal/scratch"
	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// rawPrefix names the empty copies the same-rows limit inserts into.
const rawPrefix = "bench_raw_"

// sameRowsLimit measures the engine's raw insert rate for the rows the
// end-to-end ingest stores: the decoder's records plus the derived
// tables' rows, all built in Go beforehand, appended par at a time to
// parts of partChunks chunks in empty copies of the tables (same engine,
// sorting key and indexes), as the end-to-end load writes them. Only the
// appends and commits are timed: it is the ceiling of any ingest writing
// these rows in such parts, measured in the same run.
func sameRowsLimit(ctx context.Context, s arrowstore.Store, p *Plan, chunk, par, partChunks int) (IngestFigures, error) {
	fig := IngestFigures{Phases: Phases{}}
	var mu sync.Mutex // guards fig.Phases: the inserts of a chunk run in parallel
	for _, t := range daschTables() {
		if err := s.Exec(ctx, "CREATE TABLE "+rawPrefix+t+" AS "+t, nil); err != nil {
			return fig, fmt.Errorf("copy %s: %w", t, err)
		}
	}
	defer func() {
		for _, t := range daschTables() {
			scratch.Drop(ctx, s, rawPrefix+t)
		}
	}()
	// The decoder resolves no tree for V2 outputs: an empty lookup serves.
	dec := compressedstate.NewDecoderWithTrees(light.NewTreeMap(nil))
	mem := memory.NewGoAllocator()
	builders := map[string]arrowbatch.Builder{}
	var names []string
	for _, t := range dec.Tables() {
		builders[t.Name] = t.New(mem)
		names = append(names, t.Name)
	}
	defer func() {
		for _, b := range builders {
			b.Release()
		}
	}()
	// Parts of partChunks chunks, as the end-to-end load writes them.
	// Every table here is keyed by content or versioned, as the ingest's
	// AnyOrder tables and the views and steps that write the others.
	anyOrder := func(string) bool { return true }
	parts := newPartSets(s, partChunks, par, anyOrder, func(what string, d time.Duration) {
		mu.Lock()
		fig.Phases.add(strings.Replace(what, rawPrefix, "", 1), d)
		mu.Unlock()
	}, nil)
	defer parts.abort()
	// timed adds f's wall time and the process's CPU over it to fig.
	timed := func(f func() error) error {
		use0, err := processUsage()
		if err != nil {
			return err
		}
		start := time.Now()
		err = f()
		fig.Load += time.Since(start)
		use1, uerr := processUsage()
		fig.add(use0, use1)
		return errors.Join(err, uerr)
	}
	bal, hold := newHoldingBuilders(mem)
	defer bal.Release()
	defer hold.Release()
	st, err := p.Stream(ctx, chunk, func(ch *Chunk) error {
		jobs, err := sameRows(p, ch, dec, builders, names, mem, bal, hold)
		defer func() {
			for _, j := range jobs {
				j.rec.Release()
			}
		}()
		if err != nil {
			return err
		}
		for i := range jobs {
			jobs[i].table = rawPrefix + jobs[i].table
			fig.Rows += jobs[i].rec.NumRows()
			fig.Bytes += recordBytes(jobs[i].rec)
		}
		// The rows are built before the clock and the CPU count start:
		// both take the inserts alone (and the merges running beside
		// them). A set's commit is waited for, so the clock takes it.
		return timed(func() error {
			if err := parts.add(ctx, jobs, 0); err != nil {
				return err
			}
			return parts.wait()
		})
	})
	if err == nil {
		// The last set, if short of partChunks chunks.
		err = timed(parts.flush)
	}
	if err != nil {
		return fig, fmt.Errorf("same-rows limit: %w", err)
	}
	fig.Accounts, fig.Holdings = st.Accounts, st.Holdings
	return fig, nil
}

// sameRows builds every table's rows for a chunk: the decoder's records;
// token_accounts, which holds every account unspent (spent false,
// spent_slot 0) without its signature; token_accounts_by_delegate, the
// delegated ones; token_balances and mint_holders, one row per holding.
// The accounts are all token accounts, which compressed_by_owner does not
// hold.
func sameRows(p *Plan, ch *Chunk, dec *compressedstate.Decoder, builders map[string]arrowbatch.Builder, names []string,
	mem memory.Allocator, bal, hold *array.RecordBuilder) ([]insertJob, error) {
	evs := events(p, ch)
	jobs, err := decodeChunk(dec, builders, names, evs)
	if err != nil {
		return jobs, err
	}
	var comp arrow.RecordBatch
	for _, j := range jobs {
		if j.table == schema.TableCompressed {
			comp = j.rec
		}
	}
	if comp == nil {
		return jobs, fmt.Errorf("no %s rows", schema.TableCompressed)
	}
	// The delegated outputs, decoded alone, give the delegate table's rows.
	var delegated []light.Events
	for i := range evs {
		for _, o := range evs[i].Outputs {
			if o.Token.Delegate != nil {
				delegated = append(delegated, light.Events{Signature: evs[i].Signature, Slot: evs[i].Slot, Compression: true,
					Outputs: []light.OutputAccount{o}})
			}
		}
	}
	djobs, err := decodeChunk(dec, builders, names, delegated)
	if err != nil {
		return jobs, err
	}
	var drec arrow.RecordBatch
	for _, j := range djobs {
		if j.table == schema.TableCompressed {
			drec = j.rec
		} else {
			j.rec.Release()
		}
	}
	if drec != nil {
		defer drec.Release()
		jobs = append(jobs, insertJob{schema.TableTokenByDelegate, withSpent(mem, drec, true)})
	}
	jobs = append(jobs, insertJob{schema.TableTokenAccounts, withSpent(mem, comp, false)})
	for _, h := range ch.Holdings {
		m, o := p.MintKey(int(h.Mint)), p.OwnerKey(h.Owner)
		bf, hf := bal.Fields(), hold.Fields()
		bf[0].(*array.FixedSizeBinaryBuilder).Append(o[:])
		bf[1].(*array.FixedSizeBinaryBuilder).Append(m[:])
		bf[2].(*array.Uint64Builder).Append(h.Balance)
		bf[3].(*array.Uint64Builder).Append(1)
		hf[0].(*array.FixedSizeBinaryBuilder).Append(m[:])
		hf[1].(*array.Uint64Builder).Append(h.Balance)
		hf[2].(*array.FixedSizeBinaryBuilder).Append(o[:])
		hf[3].(*array.Uint64Builder).Append(1)
		hf[4].(*array.Uint8Builder).Append(0)
	}
	jobs = append(jobs,
		insertJob{schema.TableTokenBalances, bal.NewRecordBatch()},
		insertJob{schema.TableMintHolders, hold.NewRecordBatch()})
	// Each output is marked as counted by the state step (the ledger
	// holds spends only: migration 24).
	jobs = append(jobs, insertJob{schema.TableTokenLedgerApplied, markerRows(mem, p, ch)})
	return jobs, nil
}

// markerRows builds the token_ledger_applied rows of a chunk's outputs.
func markerRows(mem memory.Allocator, p *Plan, ch *Chunk) arrow.RecordBatch {
	u64 := arrow.PrimitiveTypes.Uint64
	rb := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
		{Name: "slot", Type: u64}, {Name: "hash", Type: arrowbatch.PubkeyType()},
		{Name: "kind", Type: arrow.PrimitiveTypes.Uint8}, {Name: "applied", Type: u64},
	}, nil))
	defer rb.Release()
	f := rb.Fields()
	for i := range ch.Accounts {
		a := &ch.Accounts[i]
		h := p.AccountHash(a.Seq)
		f[0].(*array.Uint64Builder).Append(Slot(a.Seq))
		f[1].(*array.FixedSizeBinaryBuilder).Append(h[:])
		f[2].(*array.Uint8Builder).Append(0)
		f[3].(*array.Uint64Builder).Append(1)
	}
	return rb.NewRecordBatch()
}

// withSpent returns rec's columns plus spent = false and spent_slot = 0
// and, when delegate is set, delegate_key (the non-null delegate).
func withSpent(mem memory.Allocator, rec arrow.RecordBatch, delegate bool) arrow.RecordBatch {
	n := int(rec.NumRows())
	// The read paths hold compressed_accounts' columns but the signature
	// prefix (migrations 15 and 18).
	var fields []arrow.Field
	var cols []arrow.Array
	for i, f := range rec.Schema().Fields() {
		if f.Name != "sig_prefix" {
			fields = append(fields, f)
			cols = append(cols, rec.Column(i))
		}
	}
	kept := len(cols)
	if delegate {
		i := rec.Schema().FieldIndices("delegate")[0]
		src := rec.Column(i).(*array.FixedSizeBinary)
		kb := array.NewFixedSizeBinaryBuilder(mem, arrowbatch.PubkeyType().(*arrow.FixedSizeBinaryType))
		for r := 0; r < n; r++ {
			kb.Append(src.Value(r))
		}
		fields = append(fields, arrow.Field{Name: "delegate_key", Type: arrowbatch.PubkeyType()})
		cols = append(cols, kb.NewArray())
		kb.Release()
	}
	sb := array.NewBooleanBuilder(mem)
	ub := array.NewUint64Builder(mem)
	for r := 0; r < n; r++ {
		sb.Append(false)
		ub.Append(0)
	}
	fields = append(fields,
		arrow.Field{Name: "spent", Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: "spent_slot", Type: arrow.PrimitiveTypes.Uint64})
	cols = append(cols, sb.NewArray(), ub.NewArray())
	sb.Release()
	ub.Release()
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	// The record holds its own references; drop the builders' ones.
	for _, c := range cols[kept:] {
		c.Release()
	}
	return out
}

// newHoldingBuilders builds token_balances and mint_holders records.
func newHoldingBuilders(mem memory.Allocator) (bal, hold *array.RecordBuilder) {
	pk, u64 := arrowbatch.PubkeyType(), arrow.PrimitiveTypes.Uint64
	bal = array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
		{Name: "owner", Type: pk}, {Name: "mint", Type: pk}, {Name: "balance", Type: u64}, {Name: "version", Type: u64},
	}, nil))
	hold = array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{
		{Name: "mint", Type: pk}, {Name: "balance", Type: u64}, {Name: "owner", Type: pk},
		{Name: "version", Type: u64}, {Name: "is_deleted", Type: arrow.PrimitiveTypes.Uint8},
	}, nil))
	return bal, hold
}
