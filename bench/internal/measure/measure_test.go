package measure

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(0), "0"}, {Count(999), "999"}, {Count(1000), "1,000"}, {Count(-1234567), "-1,234,567"},
		{MS(1500 * time.Microsecond), "1.50"}, {MS(25 * time.Millisecond), "25.0"}, {MS(250 * time.Millisecond), "250"},
		{Lat(Series{}), "-"}, {RPS(Series{}), "-"},
		{Lat(Series{N: 1, P50: time.Millisecond, P99: 2 * time.Millisecond}), "1.00 / 2.00"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestSequential: warmup requests come first and are not measured; the
// measured ones stop at the request budget.
func TestSequential(t *testing.T) {
	var seen []Req
	s, err := Sequential(context.Background(), Budget{Warmup: 2, Requests: 3, Time: time.Minute},
		func(_ context.Context, r Req) error { seen = append(seen, r); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 3 || s.Clients != 1 || len(seen) != 5 || !seen[0].Warm || !seen[1].Warm || seen[2].Warm || seen[4].Seq != 4 {
		t.Errorf("series %+v, requests %+v", s, seen)
	}
	boom := errors.New("boom")
	if _, err := Sequential(context.Background(), Budget{Requests: 3, Time: time.Minute},
		func(context.Context, Req) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}

// TestConcurrent: every request has its own Seq, each worker warms up its
// own, and the measured count is the budget.
func TestConcurrent(t *testing.T) {
	var mu sync.Mutex
	seqs := map[int]bool{}
	warm := map[int]int{}
	s, err := Concurrent(context.Background(), 4, Budget{Warmup: 2, Requests: 40, Time: time.Minute},
		func(_ context.Context, r Req) error {
			mu.Lock()
			defer mu.Unlock()
			if seqs[r.Seq] {
				t.Errorf("seq %d twice", r.Seq)
			}
			seqs[r.Seq] = true
			if r.Warm {
				warm[r.Worker]++
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 40 || s.Clients != 4 || len(seqs) != 48 || len(warm) != 4 || warm[3] != 2 {
		t.Errorf("series %+v, %d requests, warmups %v", s, len(seqs), warm)
	}
}
