package compressedbench

import (
	"context"
	"fmt"
	"time"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// EngineWork is what the engine counted doing while a phase ran, from its
// cumulative counters (system.events: the embedded engine's are this
// process's; a server's count every client): the time its inserts spent
// sorting their blocks by the table's key, summed over threads, and the
// time its merges ran, summed over merges.
type EngineWork struct {
	SortBlocks time.Duration
	Merges     time.Duration
}

// sqlEngineWork reads the counters EngineWork takes; a counter the
// engine has not touched yet is absent, and sums to 0.
const sqlEngineWork = `SELECT
	sumIf(value, event = 'MergeTreeDataWriterSortingBlocksMicroseconds'),
	sumIf(value, event = 'MergeTotalMilliseconds')
FROM system.events`

// engineWork reads the engine's counters now.
func engineWork(ctx context.Context, s arrowstore.Store) (EngineWork, error) {
	res, err := s.Query(ctx, sqlEngineWork, nil)
	if err != nil {
		return EngineWork{}, fmt.Errorf("engine counters: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return EngineWork{}, fmt.Errorf("engine counters: %d rows", len(res.Rows))
	}
	sortUS, ok1 := res.Rows[0][0].(uint64)
	mergeMS, ok2 := res.Rows[0][1].(uint64)
	if !ok1 || !ok2 {
		return EngineWork{}, fmt.Errorf("engine counters: unexpected row %v", res.Rows[0])
	}
	return EngineWork{SortBlocks: time.Duration(sortUS) * time.Microsecond, Merges: time.Duration(mergeMS) * time.Millisecond}, nil
}

// since is the work counted from w0 to w.
func (w EngineWork) since(w0 EngineWork) EngineWork {
	return EngineWork{SortBlocks: w.SortBlocks - w0.SortBlocks, Merges: w.Merges - w0.Merges}
}

// String is the work in seconds, for the progress lines and the report.
func (w EngineWork) String() string {
	return fmt.Sprintf("sorting inserted blocks %.1f, merges %.1f", w.SortBlocks.Seconds(), w.Merges.Seconds())
}

// withEngineWork runs phase and returns the engine's work over it.
func withEngineWork(ctx context.Context, s arrowstore.Store, phase func() error) (EngineWork, error) {
	w0, err := engineWork(ctx, s)
	if err != nil {
		return EngineWork{}, err
	}
	if err := phase(); err != nil {
		return EngineWork{}, err
	}
	w1, err := engineWork(ctx, s)
	if err != nil {
		return EngineWork{}, err
	}
	return w1.since(w0), nil
}
