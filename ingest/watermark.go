package ingest

import (
	"fmt"
	"sync"
)

// watermark derives the indexed slot from item completion: the highest
// slot S such that every item with slot ≤ S is committed. Items begin in
// source order (non-decreasing slots) and may complete in any order.
//
// Items that begin after the last one seen may still share its slot, so
// until the source finishes, the last slot seen counts as incomplete,
// unless the source sealed it (Seal).
type watermark struct {
	mu       sync.Mutex
	queue    []begun // begun items from head on, in begin order
	head     int
	done     map[uint64]struct{} // committed items not yet at the head
	first    uint64              // slot of the first begun item
	last     uint64              // slot of the last begun item
	started  bool
	finished bool
	// sealed is the highest slot the source said is whole (hasSealed).
	sealed    uint64
	hasSealed bool
	// top is the highest slot of the committed prefix and below the highest
	// one under it; the flags tell a real slot 0 from none.
	top, below       uint64
	hasTop, hasBelow bool
}

type begun struct{ seq, slot uint64 }

func newWatermark() *watermark {
	return &watermark{done: map[uint64]struct{}{}}
}

// Begin registers an item; slots must not decrease.
func (w *watermark) Begin(seq, slot uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started && slot < w.last {
		return fmt.Errorf("source out of order: item %d has slot %d after slot %d", seq, slot, w.last)
	}
	if w.hasSealed && slot <= w.sealed {
		return fmt.Errorf("source out of order: item %d has slot %d after slot %d was sealed", seq, slot, w.sealed)
	}
	if !w.started {
		w.first = slot
	}
	w.started, w.last = true, slot
	w.queue = append(w.queue, begun{seq, slot})
	return nil
}

// Done marks an item committed.
func (w *watermark) Done(seq uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done[seq] = struct{}{}
	for w.head < len(w.queue) {
		it := w.queue[w.head]
		if _, ok := w.done[it.seq]; !ok {
			break
		}
		delete(w.done, it.seq)
		w.head++
		switch {
		case !w.hasTop:
			w.top, w.hasTop = it.slot, true
		case it.slot > w.top:
			w.below, w.hasBelow, w.top = w.top, true, it.slot
		}
	}
	// Drop the consumed prefix once it dominates, so memory follows the
	// number of items in flight, not the length of the run.
	if w.head >= 1024 && w.head*2 >= len(w.queue) {
		w.queue = append(w.queue[:0], w.queue[w.head:]...)
		w.head = 0
	}
}

// Seal records that no more items of slots up to slot will begin.
func (w *watermark) Seal(slot uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hasSealed && slot < w.sealed {
		return fmt.Errorf("source out of order: slot %d sealed after slot %d", slot, w.sealed)
	}
	w.sealed, w.hasSealed = slot, true
	return nil
}

// Finish records that no more items will begin.
func (w *watermark) Finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finished = true
}

// Slot returns the watermark, 0 before any slot is complete.
func (w *watermark) Slot() uint64 {
	slot, _ := w.Complete()
	return slot
}

// Complete returns the watermark and whether any slot is complete yet,
// which tells a completed slot 0 from nothing.
func (w *watermark) Complete() (uint64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.head < len(w.queue):
		// The oldest uncommitted item's slot is incomplete.
		return w.under(w.queue[w.head].slot)
	case !w.finished && !(w.hasSealed && w.sealed >= w.last):
		return w.under(w.last)
	}
	return w.top, w.hasTop
}

// First returns the slot of the first item begun, 0 if none.
func (w *watermark) First() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// under returns the highest committed-prefix slot below bound.
func (w *watermark) under(bound uint64) (uint64, bool) {
	if w.top < bound {
		return w.top, w.hasTop
	}
	return w.below, w.hasBelow
}
