package assetbench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/bench/internal/scratch"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/internal/parallel"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// chunkAssets is the number of assets generated (and decoded) together.
const chunkAssets = 4096

// generate builds every account of the plan in memory, par chunks at a
// time: the load then measures ingest, not generation. The Core
// collections come first, as they are created before their assets.
func generate(ctx context.Context, p *Plan, par int) ([][]solana.Account, error) {
	n := (p.Assets() + chunkAssets - 1) / chunkAssets
	chunks := make([][]solana.Account, n+1)
	chunks[0] = p.CoreCollectionAccounts(nil)
	idx := make([]int, n)
	for c := range idx {
		idx[c] = c
	}
	err := parallel.Run(idx, par, func(_ int, c int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var accs []solana.Account
		var err error
		for i := c * chunkAssets; i < min(p.Assets(), (c+1)*chunkAssets); i++ {
			if accs, err = p.Accounts(i, accs); err != nil {
				return err
			}
		}
		chunks[c+1] = accs
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return chunks, nil
}

// decodeChunk runs the asset ingest decoder over a chunk's accounts.
func decodeChunk(accs []solana.Account) ([]arrowbatch.Row, error) {
	var out decode.Batch
	dec := assetstate.Decoder{}
	for i := range accs {
		if err := dec.DecodeAccount(&accs[i], &out); err != nil {
			return nil, fmt.Errorf("decode %s: %w", accs[i].Pubkey, err)
		}
	}
	return out.Rows(), nil
}

// ingestFigures is the pipeline's load of the generated accounts.
type ingestFigures struct {
	Accounts int
	Rows     int64 // rows inserted, every table the decoder writes
	Bytes    int64 // bytes the batcher handed to the engine
	Load     time.Duration
}

// ingestChunks runs the chunks through the ingest path: par decode
// workers running assets.Decoder, outputs taken back in order into the
// arrowbatch batcher, which inserts in the background. The whole of it is
// timed.
func ingestChunks(ctx context.Context, s arrowstore.Store, chunks [][]solana.Account, par int) (ingestFigures, error) {
	var fig ingestFigures
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	b, err := arrowbatch.New(s, arrowbatch.Options{
		Tables: assetstate.Decoder{}.Tables(),
		OnInsert: func(_ string, rows, bytes int) {
			fig.Rows += int64(rows)
			fig.Bytes += int64(bytes)
		},
	})
	if err != nil {
		return fig, fmt.Errorf("ingest: %w", err)
	}
	type out struct {
		rows []arrowbatch.Row
		err  error
	}
	jobs := make(chan int)
	results := make([]chan out, len(chunks))
	for c := range results {
		results[c] = make(chan out, 1)
	}
	var wg sync.WaitGroup
	for range par {
		wg.Go(func() {
			for c := range jobs {
				rows, err := decodeChunk(chunks[c])
				results[c] <- out{rows, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for c := range chunks {
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	err = func() error {
		for c := range chunks {
			var o out
			select {
			case o = <-results[c]:
			case <-ctx.Done():
				return ctx.Err()
			}
			if o.err != nil {
				return o.err
			}
			fig.Accounts += len(chunks[c])
			if err := b.Add(ctx, uint64(c), o.rows); err != nil {
				return err
			}
		}
		return b.Close(ctx)
	}()
	cancel()
	wg.Wait()
	if err != nil {
		if aerr := b.Abort(); aerr != nil {
			err = fmt.Errorf("%w (abort: %v)", err, aerr)
		}
		return fig, fmt.Errorf("ingest: %w", err)
	}
	fig.Load = time.Since(start)
	return fig, nil
}

// rawPrefix names the copies of the decoder's tables that receive the raw
// insert reference.
const rawPrefix = "bench_raw_"

// rawInsert measures the engine's insert rate for the first rows of the
// same state: the rows are decoded and built into Arrow batches of the
// batcher's size, one builder per table the decoder writes, before the
// clock starts, then inserted one at a time, as the batcher inserts a
// table, into copies of those tables. It returns the rows inserted and
// the time taken.
func rawInsert(ctx context.Context, s arrowstore.Store, chunks [][]solana.Account, maxRows int) (int, time.Duration, error) {
	builders := map[string]arrowbatch.Builder{}
	var order []string
	for _, tbl := range (assetstate.Decoder{}).Tables() {
		b := tbl.New(memory.NewGoAllocator())
		defer b.Release()
		builders[tbl.Name] = b
		order = append(order, tbl.Name)
	}
	var recs []interface{ Release() }
	var batches []func() error
	flush := func(table string, b arrowbatch.Builder) {
		rec := b.NewRecord()
		recs = append(recs, rec)
		batches = append(batches, func() error { return s.Insert(ctx, rawPrefix+table, rec) })
	}
	rows := 0
	for _, ch := range chunks {
		rs, err := decodeChunk(ch)
		if err != nil {
			return 0, 0, err
		}
		for _, r := range rs {
			if rows == maxRows {
				break
			}
			b, ok := builders[r.Table()]
			if !ok {
				return 0, 0, fmt.Errorf("raw insert: no table %s", r.Table())
			}
			if err := b.Append(r); err != nil {
				return 0, 0, err
			}
			rows++
			if b.Len() == arrowbatch.DefaultRows || b.Size() >= arrowbatch.DefaultBytes {
				flush(r.Table(), b)
			}
		}
		if rows == maxRows {
			break
		}
	}
	for _, table := range order {
		if b := builders[table]; b.Len() > 0 {
			flush(table, b)
		}
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, table := range order {
		raw := rawPrefix + table
		if err := s.Exec(ctx, "DROP TABLE IF EXISTS "+raw+" SYNC", nil); err != nil {
			return 0, 0, fmt.Errorf("raw insert: %w", err)
		}
		if err := s.Exec(ctx, "CREATE TABLE "+raw+" AS "+table, nil); err != nil {
			return 0, 0, fmt.Errorf("raw insert: %w", err)
		}
		defer scratch.Drop(ctx, s, raw)
	}
	start := time.Now()
	for _, ins := range batches {
		if err := ins(); err != nil {
			return 0, 0, fmt.Errorf("raw insert: %w", err)
		}
	}
	return rows, time.Since(start), nil
}

func workers() int { return max(1, runtime.GOMAXPROCS(0)) }
