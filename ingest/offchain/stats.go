package offchain

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Stats are a fetcher's figures, safe to read while it runs.
type Stats struct {
	// Fetched counts documents stored; Retried fetches that will be
	// tried again; Failed fetches given up on, by reason (Failures).
	Fetched, Retried, Failed atomic.Uint64
	// Bytes is the size of the documents stored.
	Bytes atomic.Uint64
	// Refolded counts assets folded again with a new document.
	Refolded atomic.Uint64
	// InFlight is how many fetches run now.
	InFlight atomic.Int64
	// Queued is the URIs waiting to be fetched (queued or retry), as of
	// the last count; Lag how long the oldest of them has waited.
	Queued atomic.Uint64
	lag    atomic.Int64

	mu       sync.Mutex
	failures map[string]uint64
}

func (s *Stats) fail(reason string) {
	s.Failed.Add(1)
	// A reason is a short code; the detail after it stays out of the
	// counts so they stay few.
	code, _, _ := strings.Cut(reason, ":")
	s.mu.Lock()
	if s.failures == nil {
		s.failures = map[string]uint64{}
	}
	s.failures[code]++
	s.mu.Unlock()
}

// Failures is the failed fetches by reason.
func (s *Stats) Failures() map[string]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.failures)
}

// Lag is how long the oldest URI waiting has waited, as of the last
// count.
func (s *Stats) Lag() time.Duration { return time.Duration(s.lag.Load()) }

// String is the figures as a progress or summary line reports them.
func (s *Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "metadata: %d fetched, %d failed", s.Fetched.Load(), s.Failed.Load())
	if f := s.Failures(); len(f) > 0 {
		b.WriteString(" (")
		for i, k := range slices.Sorted(maps.Keys(f)) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", k, f[k])
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ", %d retried, %d queued, lag %s", s.Retried.Load(), s.Queued.Load(), s.Lag().Round(time.Second))
	return b.String()
}

// Counts are the counters at once, for metrics.
func (s *Stats) Counts() (fetched, retried, failed, refolded, bytes, queued uint64, inFlight int64) {
	return s.Fetched.Load(), s.Retried.Load(), s.Failed.Load(), s.Refolded.Load(), s.Bytes.Load(), s.Queued.Load(), s.InFlight.Load()
}
