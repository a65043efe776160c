package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/bench/benchjson"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// InsertReport compares the store's raw insert limit with the pipeline's
// end-to-end rate on the same rows.
type InsertReport struct {
	Rows          int
	Raw, Pipeline time.Duration
}

// RawRate is rows/s of pre-built Arrow batches straight into the store.
func (r InsertReport) RawRate() float64 { return float64(r.Rows) / r.Raw.Seconds() }

// PipelineRate is rows/s through source → decode → batch → insert.
func (r InsertReport) PipelineRate() float64 { return float64(r.Rows) / r.Pipeline.Seconds() }

// Ratio is pipeline / raw: how close ingestion runs to the engine's limit.
func (r InsertReport) Ratio() float64 { return r.PipelineRate() / r.RawRate() }

func (r InsertReport) String() string {
	return fmt.Sprintf("accounts: %d rows; raw insert %.0f rows/s (%.2fs); pipeline %.0f rows/s (%.2fs); pipeline/raw = %.2f",
		r.Rows, r.RawRate(), r.Raw.Seconds(), r.PipelineRate(), r.Pipeline.Seconds(), r.Ratio())
}

// JSON is the run's record (bench/benchjson): rates only, no latency
// series.
func (r InsertReport) JSON(started time.Time, loadAvg string, batchRows int) *benchjson.Run {
	j := benchjson.New("insert", started, loadAvg)
	j.ElapsedS = time.Since(started).Seconds()
	j.Params["rows"] = r.Rows
	j.Params["batch"] = batchRows
	j.Count("rows", int64(r.Rows))
	j.Figure("raw_rows_per_s", r.RawRate())
	j.Figure("pipeline_rows_per_s", r.PipelineRate())
	j.Figure("pipeline_over_raw", r.Ratio())
	j.Seconds("raw_s", r.Raw)
	j.Seconds("pipeline_s", r.Pipeline)
	j.Sample("bench", benchjson.SelfMemory)
	return j
}

// RunInsert measures both rates on n synthetic accounts in s, which must be
// migrated; it empties the accounts tables before each phase.
func RunInsert(ctx context.Context, s arrowstore.Store, n, batchRows int) (InsertReport, error) {
	rep := InsertReport{Rows: n}
	if batchRows <= 0 {
		batchRows = 50_000
	}
	docs := SyntheticAccounts(n, 1)

	accs := make([]*solana.Account, len(docs))
	for i, d := range docs {
		a, err := solana.ParseAccount(d)
		if err != nil {
			return rep, fmt.Errorf("synthetic account: %w", err)
		}
		accs[i] = a
	}
	var err error
	if rep.Raw, err = rawInsert(ctx, s, accs, batchRows); err != nil {
		return rep, err
	}

	// Phase 2: the same documents through the pipeline.
	if err := emptyAccounts(ctx, s); err != nil {
		return rep, err
	}
	start := time.Now()
	if _, err := ingest.Run(ctx, ingest.Config{Store: s, Source: memSource{docs: docs}, BatchRows: batchRows}); err != nil {
		return rep, fmt.Errorf("pipeline: %w", err)
	}
	rep.Pipeline = time.Since(start)
	if err := expectAccounts(ctx, s, n); err != nil {
		return rep, fmt.Errorf("pipeline phase: %w", err)
	}
	return rep, nil
}

// rawInsert is the reference both benches compare with: accs built into
// batches of batchRows before the clock starts, then inserted one at a
// time per table as the batcher inserts, into emptied accounts tables;
// it checks every row arrived.
func rawInsert(ctx context.Context, s arrowstore.Store, accs []*solana.Account, batchRows int) (time.Duration, error) {
	b := arrowbatch.AccountsTable().New(memory.NewGoAllocator())
	defer b.Release()
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, a := range accs {
		row := arrowbatch.AccountRow(*a)
		if err := b.Append(&row); err != nil {
			return 0, err
		}
		if b.Len() == batchRows {
			recs = append(recs, b.NewRecord())
		}
	}
	if b.Len() > 0 {
		recs = append(recs, b.NewRecord())
	}
	if err := emptyAccounts(ctx, s); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := insertAll(ctx, s, recs, 2); err != nil {
		return 0, err
	}
	took := time.Since(start)
	if err := expectAccounts(ctx, s, len(accs)); err != nil {
		return 0, fmt.Errorf("raw phase: %w", err)
	}
	return took, nil
}

// insertAll inserts recs with par concurrent streams, as the pipeline may.
func insertAll(ctx context.Context, s arrowstore.Store, recs []arrow.RecordBatch, par int) error {
	return parallel.Run(recs, par, func(_ int, r arrow.RecordBatch) error {
		return s.Insert(ctx, schema.TableAccounts, r)
	})
}

func emptyAccounts(ctx context.Context, s arrowstore.Store) error {
	return schema.TruncateTables(ctx, s, schema.TableAccounts, schema.TableAccByOwner, schema.TableCheckpoints)
}

func expectAccounts(ctx context.Context, s arrowstore.Store, n int) error {
	res, err := s.Query(ctx, "SELECT count() FROM accounts", nil)
	if err != nil {
		return err
	}
	if got := res.Rows[0][0].(uint64); got != uint64(n) {
		return fmt.Errorf("accounts holds %d rows, want %d", got, n)
	}
	return nil
}
