package parallel_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/dasch-labs/dasch/internal/parallel"
)

func TestRun(t *testing.T) {
	jobs := make([]int, 100)
	for i := range jobs {
		jobs[i] = i
	}
	tests := []struct {
		name    string
		workers int
		failAt  int // -1: never
	}{
		{"all succeed", 3, -1},
		{"zero workers means one", 0, -1},
		{"first error wins", 2, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sum, maxWorker atomic.Int64
			boom := errors.New("boom")
			err := parallel.Run(jobs, tc.workers, func(w, j int) error {
				if int64(w) > maxWorker.Load() {
					maxWorker.Store(int64(w))
				}
				if j == tc.failAt {
					return boom
				}
				sum.Add(int64(j))
				return nil
			})
			if tc.failAt >= 0 {
				if !errors.Is(err, boom) {
					t.Fatalf("err = %v, want boom", err)
				}
				return
			}
			if err != nil || sum.Load() != 4950 {
				t.Fatalf("err %v, sum %d", err, sum.Load())
			}
			if maxWorker.Load() >= int64(max(1, tc.workers)) {
				t.Fatalf("worker index %d out of range", maxWorker.Load())
			}
		})
	}
}
