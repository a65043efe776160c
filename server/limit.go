package server

import (
	"sync"
	"time"

	"github.com/dasch-labs/dasch/internal/tokenbucket"
)

// limiter is a token bucket per api key.
type limiter struct {
	rate  float64 // tokens per second
	burst float64

	mu      sync.Mutex
	buckets map[string]*tokenbucket.Bucket
}

// pruneAbove bounds memory: past this many keys, buckets that have refilled
// completely are dropped, which loses nothing since a new bucket starts full.
const pruneAbove = 10000

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: make(map[string]*tokenbucket.Bucket)}
}

// allow takes one token for key if there is one.
func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= pruneAbove {
			l.prune(now)
		}
		nb := tokenbucket.New(l.rate, l.burst, now)
		b = &nb
		l.buckets[key] = b
	}
	return b.Take(now)
}

func (l *limiter) prune(now time.Time) {
	for k, b := range l.buckets {
		if b.Full(now) {
			delete(l.buckets, k)
		}
	}
}

// exhausted reports whether key's bucket has no token left, without
// taking one; a key without a bucket has all of them.
func (l *limiter) exhausted(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	return ok && b.Empty(now)
}
