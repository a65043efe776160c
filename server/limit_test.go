package server

import (
	"fmt"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	l := newLimiter(2, 3)
	t0 := time.Unix(1000, 0)
	steps := []struct {
		at   time.Duration
		key  string
		want bool
	}{
		{0, "a", true}, {0, "a", true}, {0, "a", true}, {0, "a", false}, // burst of 3
		{0, "b", true},                                                         // separate bucket
		{400 * time.Millisecond, "a", false},                                   // 0.8 token
		{500 * time.Millisecond, "a", true},                                    // 1.0 token
		{500 * time.Millisecond, "a", false},                                   // spent
		{time.Hour, "a", true}, {time.Hour, "a", true}, {time.Hour, "a", true}, // refilled to burst, not beyond
		{time.Hour, "a", false},
	}
	for i, s := range steps {
		if got := l.allow(s.key, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d (%v %s): allow = %v, want %v", i, s.at, s.key, got, s.want)
		}
	}
}

func TestLimiterPrunes(t *testing.T) {
	l := newLimiter(1, 1)
	t0 := time.Unix(1000, 0)
	for i := range pruneAbove {
		l.allow(fmt.Sprint(i), t0)
	}
	// Every bucket is empty now; after a second they are full again and can go.
	l.allow("new", t0.Add(time.Second))
	if n := len(l.buckets); n != 1 {
		t.Errorf("%d buckets after pruning, want 1", n)
	}
}
