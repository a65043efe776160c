// Package slotnote carries, in a call's context, the slot its answer is
// consistent with: the slot source notes what it handed out, and the
// server reads it back for the request log, without looking into the
// answer.
package slotnote

import (
	"context"
	"sync/atomic"
)

type key struct{}

// Note holds the slot of one call; the zero Note holds none.
type Note struct{ v atomic.Uint64 }

// With returns ctx carrying n.
func With(ctx context.Context, n *Note) context.Context { return context.WithValue(ctx, key{}, n) }

// Set notes slot in ctx's Note, if it has one. The highest slot noted
// wins, as an answer read over several slots is stamped with the last.
func Set(ctx context.Context, slot uint64) {
	n, _ := ctx.Value(key{}).(*Note)
	if n == nil {
		return
	}
	for {
		old := n.v.Load()
		if old >= slot+1 || n.v.CompareAndSwap(old, slot+1) {
			return
		}
	}
}

// Slot is the slot noted, if any.
func (n *Note) Slot() (uint64, bool) {
	v := n.v.Load()
	if v == 0 {
		return 0, false
	}
	return v - 1, true
}
