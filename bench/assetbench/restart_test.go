package assetbench

import (
	"testing"
	"time"
)

func TestFullSpeed(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		lat    []time.Duration
		window int
		limit  time.Duration
		at     int
		ok     bool
	}{
		{"at once", ms(1, 1, 1, 1), 2, 2 * time.Millisecond, 0, true},
		{"after a slow start", ms(50, 40, 30, 1, 1, 1), 3, 2 * time.Millisecond, 3, true},
		// A window of 4 has its p99 at its largest answer: one slow
		// answer keeps every window holding it from full speed.
		{"one slow answer inside", ms(1, 1, 9, 1, 1, 1, 1), 4, 2 * time.Millisecond, 3, true},
		{"never", ms(5, 5, 5, 5), 2, 2 * time.Millisecond, 0, false},
		{"too few answers", ms(1), 2, 2 * time.Millisecond, 0, false},
	} {
		at, _, ok := fullSpeed(tc.lat, tc.window, tc.limit)
		if ok != tc.ok || at != tc.at {
			t.Errorf("%s: at %d ok %v, want %d %v", tc.name, at, ok, tc.at, tc.ok)
		}
	}
}
