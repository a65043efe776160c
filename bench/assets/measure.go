package assets

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
	// Throughput is requests per second over the run (concurrent runs).
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

// request is request i of a series; verify asks it to check the answer
// in full (the unmeasured first pass), not only that it succeeded.
type request func(ctx context.Context, i int, verify bool) error

// sequential runs fn one request at a time; the warmup requests are the
// verified first pass.
func sequential(ctx context.Context, b Budget, fn request) (Series, error) {
	for i := 0; i < b.Warmup; i++ {
		if err := fn(ctx, i, true); err != nil {
			return Series{}, err
		}
	}
	lat := make([]time.Duration, 0, b.Requests)
	start := time.Now()
	for i := 0; i < b.Requests && (i < b.MinRequests || time.Since(start) < b.Time); i++ {
		t := time.Now()
		if err := fn(ctx, b.Warmup+i, false); err != nil {
			return Series{}, err
		}
		lat = append(lat, time.Since(t))
	}
	s := summarise(lat)
	s.Clients = 1
	s.Throughput = float64(s.N) / time.Since(start).Seconds()
	return s, nil
}

// concurrent runs fn from clients goroutines until b.Requests requests or
// b.Time, whichever comes first; each worker warms up its own connection
// first with verified requests of its own.
func concurrent(ctx context.Context, clients int, b Budget, fn request) (Series, error) {
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
				if err := fn(ctx, w*b.Warmup+i, true); err != nil {
					fail(err)
					warm = false
					break
				}
			}
			ready.Done()
			<-gate
			for warm {
				i := next.Add(1) - 1
				if i >= int64(b.Requests) || time.Now().After(deadline) || ctx.Err() != nil {
					break
				}
				t := time.Now()
				if err := fn(ctx, clients*b.Warmup+int(i), false); err != nil {
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
