package ingest

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/store"
)

// StateStep derives state that a stateless decoder cannot write, such as
// read tables that join rows of different items. The pipeline applies every
// step to each slot range that became committed, in order, before the
// checkpoint covers it: the indexed slot never includes underived state.
type StateStep interface {
	// Name identifies the step in errors.
	Name() string
	// Apply derives the state of the committed slots [fromSlot, toSlot].
	// It must be idempotent: a range may be applied again, by a later run
	// re-ingesting it or after a failure.
	Apply(ctx context.Context, s store.Store, fromSlot, toSlot uint64) error
}

// InsertObserver is a StateStep shown every record the pipeline inserts,
// once its insert succeeded and before the range holding its rows is
// applied, from the inserting goroutine. It may retain the record: what
// it wrote is already in the store, so the step may use it instead of
// reading it back.
type InsertObserver interface {
	Inserted(table string, rec arrow.RecordBatch)
}

// observedInserts shows every successful insert to the steps that
// observe them.
type observedInserts struct {
	store.Store
	observers []InsertObserver
}

// observeInserts wraps s for the pipeline's inserts when a step observes
// them.
func observeInserts(s store.Store, steps []StateStep) store.Store {
	var obs []InsertObserver
	for _, st := range steps {
		if o, ok := st.(InsertObserver); ok {
			obs = append(obs, o)
		}
	}
	if len(obs) == 0 {
		return s
	}
	return observedInserts{s, obs}
}

func (o observedInserts) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if err := o.Store.Insert(ctx, table, rec); err != nil {
		return err
	}
	for _, ob := range o.observers {
		ob.Inserted(table, rec)
	}
	return nil
}

// applySteps runs every step over [from, to], one after the other.
func applySteps(ctx context.Context, s store.Store, steps []StateStep, from, to uint64) error {
	for _, st := range steps {
		if err := st.Apply(ctx, s, from, to); err != nil {
			return fmt.Errorf("state step %s over slots %d..%d: %w", st.Name(), from, to, err)
		}
	}
	return nil
}
