package slotnote_test

import (
	"context"
	"testing"

	"github.com/dasch-labs/dasch/internal/slotnote"
)

func TestNote(t *testing.T) {
	var n slotnote.Note
	if _, ok := n.Slot(); ok {
		t.Fatal("empty note holds a slot")
	}
	slotnote.Set(context.Background(), 5) // no note: nothing happens
	ctx := slotnote.With(context.Background(), &n)
	for _, tc := range []struct{ set, want uint64 }{{0, 0}, {7, 7}, {3, 7}, {9, 9}} {
		slotnote.Set(ctx, tc.set)
		if got, ok := n.Slot(); !ok || got != tc.want {
			t.Errorf("after Set(%d): %d, %v; want %d", tc.set, got, ok, tc.want)
		}
	}
}
