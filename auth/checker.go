package auth

import (
	"context"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/dasch-labs/dasch/internal/tokenbucket"
	"github.com/dasch-labs/dasch/store"
)

// Checker answers "is this key valid, and for which project" from memory.
// A key it has not seen is looked up once in the store (so a key created a
// moment ago works at once); unknown keys are remembered for a while so a
// flood of bad keys cannot turn into a flood of queries. A flood of
// distinct random keys would miss that memory every time, so the lookups
// themselves are rationed (MissLookups a second): past the ration a key
// not in memory is unknown until the next Refresh loads it.
type Checker struct {
	s          store.Querier
	negTTL     time.Duration
	mu         sync.RWMutex
	known      map[string]string    // key hash → project id
	unknown    map[string]time.Time // key hash → when it was found missing
	maxUnknown int
	// misses rations the store lookups of keys not in memory.
	missMu sync.Mutex
	misses tokenbucket.Bucket
}

// MissLookups is how many store lookups of keys not in memory a Checker
// makes per second, at most (and in a burst).
const MissLookups = 20

// NewChecker returns a checker that loads keys from s on demand.
func NewChecker(s store.Querier) *Checker {
	return &Checker{s: s, negTTL: 2 * time.Second, known: map[string]string{}, unknown: map[string]time.Time{},
		maxUnknown: 100_000, misses: tokenbucket.New(MissLookups, MissLookups, time.Now())}
}

// KnownKey answers from memory alone: the project of a key loaded or
// looked up before.
func (c *Checker) KnownKey(key string) (string, bool) {
	if key == "" || len(key) > 128 {
		return "", false
	}
	h := hashKey(key)
	c.mu.RLock()
	defer c.mu.RUnlock()
	pid, ok := c.known[h]
	return pid, ok
}

// CheckKey implements server.KeyChecker.
func (c *Checker) CheckKey(ctx context.Context, key string) (string, bool, error) {
	if key == "" || len(key) > 128 {
		return "", false, nil
	}
	h := hashKey(key)
	c.mu.RLock()
	pid, ok := c.known[h]
	missAt, miss := c.unknown[h]
	c.mu.RUnlock()
	if ok {
		return pid, true, nil
	}
	if miss && time.Since(missAt) < c.negTTL {
		return "", false, nil
	}
	c.missMu.Lock()
	rationed := !c.misses.Take(time.Now())
	c.missMu.Unlock()
	if rationed {
		return "", false, nil
	}
	res, err := c.s.Query(ctx, `SELECT argMax(project_id, updated_at), argMax(revoked, updated_at)
		FROM api_keys WHERE key_hash = unhex({h:String}) GROUP BY key_hash`,
		store.Params{"h": hex.EncodeToString([]byte(h))})
	if err != nil {
		return "", false, fmt.Errorf("look up key: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(res.Rows) == 0 || res.Rows[0][1].(bool) {
		if len(c.unknown) >= c.maxUnknown {
			c.unknown = map[string]time.Time{}
		}
		c.unknown[h] = time.Now()
		return "", false, nil
	}
	pid = res.Rows[0][0].(string)
	c.known[h] = pid
	delete(c.unknown, h)
	return pid, true, nil
}

// Refresh reloads every key, dropping revoked ones.
func (c *Checker) Refresh(ctx context.Context) error {
	res, err := c.s.Query(ctx, `SELECT key_hash, argMax(project_id, updated_at), argMax(revoked, updated_at)
		FROM api_keys GROUP BY key_hash`, nil)
	if err != nil {
		return fmt.Errorf("load keys: %w", err)
	}
	known := make(map[string]string, len(res.Rows))
	for _, r := range res.Rows {
		if !r[2].(bool) {
			known[r[0].(string)] = r[1].(string)
		}
	}
	c.mu.Lock()
	c.known = known
	c.mu.Unlock()
	return nil
}

// Run refreshes every interval until ctx ends.
func (c *Checker) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = c.Refresh(ctx)
		}
	}
}
