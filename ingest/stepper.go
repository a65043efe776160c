package ingest

import (
	"context"
	"sync"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Stepper applies the state steps to committed slot ranges in a goroutine
// of its own, so inserts go on while a step runs. Each range starts after
// the previous one and ends at the last slot committed when it starts:
// when the steps fall behind, they get fewer and larger, and what each
// pays whatever its size (reading the state it updates) is paid less
// often. After every range, done is called with its first and last slot
// (the pipeline writes its checkpoint at the last), so it never covers
// underived state.
//
// A step that fails on its own halts the Stepper: nothing is applied or
// done after it, and fail is called so the pipeline stops. A step cut
// short because ctx ended leaves its range to CatchUp.
type Stepper struct {
	store arrowstore.Writer
	steps []StateStep
	done  func(ctx context.Context, from, to uint64, stepped bool) error
	fail  func()
	wake  chan struct{}
	quit  chan struct{}
	ended chan struct{}

	mu      sync.Mutex
	first   uint64 // the first range's first slot
	target  uint64 // the last committed slot
	have    bool   // target is set
	stepped bool   // some range was applied, up to stepTo
	stepTo  uint64
	err     error // the failure that halted the Stepper
}

// StartStepper starts applying steps to the ranges Advance reports, under
// ctx, until Stop. done may be nil; it gets the range just stepped, with
// stepped false when nothing new was (CatchUp calls it again for the same
// end). fail is called once, from the Stepper's goroutine, when a step or
// done fails on its own.
func StartStepper(ctx context.Context, s arrowstore.Writer, steps []StateStep, done func(ctx context.Context, from, to uint64, stepped bool) error, fail func()) *Stepper {
	st := &Stepper{
		store: s, steps: steps, done: done, fail: fail,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), ended: make(chan struct{}),
	}
	go st.loop(ctx)
	return st
}

// Advance reports that every slot up to to is committed; first is the
// first slot of the run, where the first range starts (a run may
// re-ingest slots below an earlier run's checkpoint). It never blocks,
// and wakes the Stepper only when to moved.
func (st *Stepper) Advance(first, to uint64) {
	st.mu.Lock()
	if !st.have {
		st.first = first
	}
	moved := !st.have || to > st.target
	if moved {
		st.target, st.have = to, true
	}
	st.mu.Unlock()
	if !moved {
		return
	}
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// Err returns the failure that halted the Stepper, if any.
func (st *Stepper) Err() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.err
}

// Stop ends the Stepper's goroutine, after the range it is applying, and
// returns Err. Ranges committed since are left to CatchUp.
func (st *Stepper) Stop() error {
	select {
	case <-st.quit:
	default:
		close(st.quit)
	}
	<-st.ended
	return st.Err()
}

// CatchUp applies, in the caller's goroutine, what was committed and not
// yet applied, and calls done. It is for after Stop; a halted Stepper
// returns its failure and does nothing.
func (st *Stepper) CatchUp(ctx context.Context) error {
	if err := st.Err(); err != nil {
		return err
	}
	return st.apply(ctx)
}

func (st *Stepper) loop(ctx context.Context) {
	defer close(st.ended)
	for {
		select {
		case <-st.quit:
			return
		case <-ctx.Done():
			return
		case <-st.wake:
		}
		if err := st.apply(ctx); err != nil {
			if ctx.Err() != nil {
				return // cut short: the range is still to be applied
			}
			st.mu.Lock()
			st.err = err
			st.mu.Unlock()
			if st.fail != nil {
				st.fail()
			}
			return
		}
	}
}

// apply runs the steps over the range committed since the last one, if
// any, then done. Calls do not overlap: the loop makes them until Stop,
// CatchUp after it.
func (st *Stepper) apply(ctx context.Context) error {
	st.mu.Lock()
	have, to, from := st.have, st.target, st.first
	if st.stepped {
		from = st.stepTo + 1
	}
	fresh := !st.stepped || to > st.stepTo
	st.mu.Unlock()
	if !have {
		return nil
	}
	if fresh {
		if err := applySteps(ctx, st.store, st.steps, from, to); err != nil {
			return err
		}
		st.mu.Lock()
		st.stepped, st.stepTo = true, to
		st.mu.Unlock()
	}
	if st.done == nil {
		return nil
	}
	return st.done(ctx, from, to, fresh)
}
