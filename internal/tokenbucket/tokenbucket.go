// Package tokenbucket is the token bucket the server's rate limits and the
// key checker's lookup ration share.
package tokenbucket

import "time"

// Bucket holds up to Burst tokens and gains Rate a second. It is not safe
// for concurrent use: its owner locks around Take.
type Bucket struct {
	Rate, Burst float64
	tokens      float64
	last        time.Time
}

// New returns a full bucket.
func New(rate, burst float64, now time.Time) Bucket {
	return Bucket{Rate: rate, Burst: burst, tokens: burst, last: now}
}

// Take takes one token at now if there is one.
func (b *Bucket) Take(now time.Time) bool {
	b.refill(now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Empty reports whether no token is left at now.
func (b *Bucket) Empty(now time.Time) bool {
	return b.tokens+now.Sub(b.last).Seconds()*b.Rate < 1
}

// Full reports whether the bucket has refilled to Burst by now: such a
// bucket can be dropped and made again with New, losing nothing.
func (b *Bucket) Full(now time.Time) bool {
	return b.tokens+now.Sub(b.last).Seconds()*b.Rate >= b.Burst
}

func (b *Bucket) refill(now time.Time) {
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = min(b.Burst, b.tokens+el*b.Rate)
		b.last = now
	}
}
