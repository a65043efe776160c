// Package ingesthealth tells a serving process's readiness whether the
// ingest it runs beside the API is failing: a server whose ingest keeps
// failing answers from a store that no longer moves, which a load
// balancer should know.
package ingesthealth

import (
	"fmt"
	"sync"
)

// Tracker counts the ingest's failed runs in a row. It reports failing
// once Limit runs failed with the indexed slot not moving since the
// first of them; a slot indexed past that point, or a run that ends
// well, clears it.
type Tracker struct {
	limit int

	mu    sync.Mutex
	fails int
	last  error
	at    uint64 // the indexed slot when the first failure of the row came
}

// New returns a tracker that reports failing after limit failed runs in
// a row (at least 1).
func New(limit int) *Tracker { return &Tracker{limit: max(1, limit)} }

// Failed records a failed run, indexed being the store's indexed slot.
func (t *Tracker) Failed(err error, indexed uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fails == 0 || indexed > t.at {
		t.fails, t.at = 0, indexed
	}
	t.fails++
	t.last = err
}

// Succeeded records a run that ended well.
func (t *Tracker) Succeeded() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fails, t.last = 0, nil
}

// Check is nil unless the ingest is failing with the store's indexed
// slot where it was: then the reason.
func (t *Tracker) Check(indexed uint64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fails > 0 && indexed > t.at {
		t.fails, t.last = 0, nil // a later run is indexing again
	}
	if t.fails < t.limit {
		return nil
	}
	return fmt.Errorf("ingest failing: %d runs in a row, indexed slot still %d: %v", t.fails, t.at, t.last)
}
