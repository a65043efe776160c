package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/store/arrowstore"
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
	Apply(ctx context.Context, s arrowstore.Writer, fromSlot, toSlot uint64) error
}

// StepCloser is a StateStep that holds something for the run, such as
// staging tables of its own: the pipeline calls Close when the run ends.
type StepCloser interface {
	Close(ctx context.Context, s arrowstore.Writer) error
}

// closeSteps closes every step that is a StepCloser.
func closeSteps(ctx context.Context, s arrowstore.Writer, steps []StateStep) error {
	var errs []error
	for _, st := range steps {
		if c, ok := st.(StepCloser); ok {
			if err := c.Close(ctx, s); err != nil {
				errs = append(errs, fmt.Errorf("state step %s: %w", st.Name(), err))
			}
		}
	}
	return errors.Join(errs...)
}

// applySteps runs every step over [from, to], one after the other.
func applySteps(ctx context.Context, s arrowstore.Writer, steps []StateStep, from, to uint64) error {
	for _, st := range steps {
		if err := st.Apply(ctx, s, from, to); err != nil {
			return fmt.Errorf("state step %s over slots %d..%d: %w", st.Name(), from, to, err)
		}
	}
	return nil
}
