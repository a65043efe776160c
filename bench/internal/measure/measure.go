// Package measure times request streams for the benchmarks and formats
// their figures: latency percentiles of sequential and concurrent series
// within a request and time budget, and the aligned report tables.
package measure

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Series is the latencies of one measured request stream.
type Series struct {
	N        int
	P50, P99 time.Duration
	// Throughput is requests per second over the run.
	Throughput float64
	Clients    int
}

// Measured reports whether the series holds figures.
func (s Series) Measured() bool { return s.N > 0 }

func summarise(lat []time.Duration) Series {
	if len(lat) == 0 {
		return Series{}
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[max(0, int(math.Ceil(p*float64(len(lat))))-1)] }
	return Series{N: len(lat), P50: q(0.50), P99: q(0.99)}
}

// Budget bounds one measured stream: at most Requests requests and at
// most Time, after Warmup unmeasured requests.
type Budget struct {
	Warmup   int
	Requests int
	Time     time.Duration
	// MinRequests are measured even past Time, so a slow series still
	// yields a percentile.
	MinRequests int
}

// Req says which request a stream asks for.
type Req struct {
	// Worker is the client sending it (0 in a sequential series).
	Worker int
	// Index counts the requests of its phase: each worker's warmup from 0,
	// then the measured requests from 0 across all workers.
	Index int
	// Seq is distinct for every request of the series: warmup requests
	// first, worker by worker, then the measured ones.
	Seq int
	// Warm marks an unmeasured warmup request; callers check its answer
	// in full.
	Warm bool
}

// Sequential runs fn one request at a time: b.Warmup warmup requests, then
// measured ones until b's limits.
func Sequential(ctx context.Context, b Budget, fn func(context.Context, Req) error) (Series, error) {
	for i := 0; i < b.Warmup; i++ {
		if err := fn(ctx, Req{Index: i, Seq: i, Warm: true}); err != nil {
			return Series{}, err
		}
	}
	lat := make([]time.Duration, 0, b.Requests)
	start := time.Now()
	for i := 0; i < b.Requests && (i < b.MinRequests || time.Since(start) < b.Time); i++ {
		t := time.Now()
		if err := fn(ctx, Req{Index: b.Warmup + i, Seq: b.Warmup + i}); err != nil {
			return Series{}, err
		}
		lat = append(lat, time.Since(t))
	}
	s := summarise(lat)
	s.Clients = 1
	s.Throughput = float64(s.N) / time.Since(start).Seconds()
	return s, nil
}

// Concurrent runs fn from clients goroutines until b.Requests requests or
// b.Time, whichever comes first; each worker first sends its own warmup
// requests, and the clock starts when all are warm.
func Concurrent(ctx context.Context, clients int, b Budget, fn func(context.Context, Req) error) (Series, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    atomic.Int64
		mu      sync.Mutex
		all     []time.Duration
		firstEr error
		ready   sync.WaitGroup
		done    sync.WaitGroup
	)
	gate := make(chan struct{})
	var deadline time.Time
	for w := 0; w < clients; w++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			var lat []time.Duration
			fail := func(err error) {
				mu.Lock()
				if firstEr == nil {
					firstEr = err
				}
				mu.Unlock()
				cancel()
			}
			warm := true
			for i := 0; i < b.Warmup; i++ {
				if err := fn(ctx, Req{Worker: w, Index: i, Seq: w*b.Warmup + i, Warm: true}); err != nil {
					fail(err)
					warm = false
					break
				}
			}
			ready.Done()
			<-gate
			for warm {
				i := int(next.Add(1) - 1)
				if i >= b.Requests || time.Now().After(deadline) || ctx.Err() != nil {
					break
				}
				t := time.Now()
				if err := fn(ctx, Req{Worker: w, Index: i, Seq: clients*b.Warmup + i}); err != nil {
					fail(err)
					break
				}
				lat = append(lat, time.Since(t))
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	ready.Wait()
	start := time.Now()
	deadline = start.Add(b.Time)
	close(gate)
	done.Wait()
	elapsed := time.Since(start)
	if firstEr != nil {
		return Series{}, firstEr
	}
	s := summarise(all)
	s.Clients = clients
	s.Throughput = float64(s.N) / elapsed.Seconds()
	return s, nil
}
