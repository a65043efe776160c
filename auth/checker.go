package auth

import (
	"context"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dasch-labs/dasch/internal/tokenbucket"
	"github.com/dasch-labs/dasch/store"
)

// Key is a valid key as the server sees it: never the key itself.
type Key struct {
	// ID is the key's public id (KeyID).
	ID        string
	ProjectID string
	// Plan is the project's plan, which picks its rate limits.
	Plan string
	// Services are the service classes the key may use; nil: every one.
	Services []string
}

// Checker answers "is this key valid, and for which project" from memory.
// A key it has not seen is looked up once in the store (so a key created a
// moment ago works at once); unknown keys are remembered for a while so a
// flood of bad keys cannot turn into a flood of queries. A flood of
// distinct random keys would miss that memory every time, so the lookups
// themselves are rationed (MissLookups a second): past the ration a key
// not in memory is unknown until the next Refresh loads it.
//
// Watch keeps the memory in step with the store: a revoked key or a
// changed plan takes effect at its next check.
type Checker struct {
	s          store.Querier
	negTTL     time.Duration
	mu         sync.RWMutex
	known      map[string]Key       // key hash → key
	plans      map[string]string    // project id → plan
	unknown    map[string]time.Time // key hash → when it was found missing
	maxUnknown int
	// misses rations the store lookups of keys not in memory.
	missMu sync.Mutex
	misses tokenbucket.Bucket
	// mark is the tables' state at the last Refresh (changeMark).
	markMu sync.Mutex
	mark   string
	// hits and misses count keys found in memory and looked up.
	hits, lookups atomic.Uint64
}

// Counts are the keys found in memory (hits) and those looked up in the
// store or rationed (misses).
func (c *Checker) Counts() (hits, misses uint64) { return c.hits.Load(), c.lookups.Load() }

// MissLookups is how many store lookups of keys not in memory a Checker
// makes per second, at most (and in a burst).
const MissLookups = 20

// NewChecker returns a checker that loads keys from s on demand.
func NewChecker(s store.Querier) *Checker {
	return &Checker{s: s, negTTL: 2 * time.Second, known: map[string]Key{}, plans: map[string]string{},
		unknown: map[string]time.Time{}, maxUnknown: 100_000, misses: tokenbucket.New(MissLookups, MissLookups, time.Now())}
}

// KnownKey answers from memory alone: the project of a key loaded or
// looked up before.
func (c *Checker) KnownKey(key string) (string, bool) {
	k, ok := c.Known(key)
	return k.ProjectID, ok
}

// Known is KnownKey with everything known of the key.
func (c *Checker) Known(key string) (Key, bool) {
	if key == "" || len(key) > 128 {
		return Key{}, false
	}
	h := hashKey(key)
	c.mu.RLock()
	defer c.mu.RUnlock()
	k, ok := c.known[h]
	return k, ok
}

// CheckKey implements server.KeyChecker.
func (c *Checker) CheckKey(ctx context.Context, key string) (string, bool, error) {
	k, ok, err := c.Resolve(ctx, key)
	return k.ProjectID, ok, err
}

// Resolve is CheckKey with everything known of the key.
func (c *Checker) Resolve(ctx context.Context, key string) (Key, bool, error) {
	if key == "" || len(key) > 128 {
		return Key{}, false, nil
	}
	h := hashKey(key)
	c.mu.RLock()
	k, ok := c.known[h]
	missAt, miss := c.unknown[h]
	c.mu.RUnlock()
	if ok {
		c.hits.Add(1)
		return k, true, nil
	}
	c.lookups.Add(1)
	if miss && time.Since(missAt) < c.negTTL {
		return Key{}, false, nil
	}
	c.missMu.Lock()
	rationed := !c.misses.Take(time.Now())
	c.missMu.Unlock()
	if rationed {
		return Key{}, false, nil
	}
	res, err := c.s.Query(ctx, `SELECT argMax(project_id, updated_at), argMax(revoked, updated_at), argMax(services, updated_at)
		FROM api_keys WHERE key_hash = unhex({h:String}) GROUP BY key_hash`,
		store.Params{"h": hex.EncodeToString([]byte(h))})
	if err != nil {
		return Key{}, false, fmt.Errorf("look up key: %w", err)
	}
	if len(res.Rows) == 0 || res.Rows[0][1].(bool) {
		c.mu.Lock()
		if len(c.unknown) >= c.maxUnknown {
			c.unknown = map[string]time.Time{}
		}
		c.unknown[h] = time.Now()
		c.mu.Unlock()
		return Key{}, false, nil
	}
	k = Key{ID: keyIDOf(h), ProjectID: res.Rows[0][0].(string), Services: strs(res.Rows[0][2])}
	c.mu.RLock()
	plan, havePlan := c.plans[k.ProjectID]
	c.mu.RUnlock()
	if !havePlan {
		// A project created since the last Refresh.
		p, found, err := GetProject(ctx, c.s, k.ProjectID)
		if err != nil {
			return Key{}, false, err
		}
		plan = DefaultPlan
		if found {
			plan = p.Plan
		}
	}
	k.Plan = plan
	c.mu.Lock()
	defer c.mu.Unlock()
	c.known[h] = k
	c.plans[k.ProjectID] = plan
	delete(c.unknown, h)
	return k, true, nil
}

// Refresh reloads every key and plan, dropping revoked keys.
func (c *Checker) Refresh(ctx context.Context) error {
	mark, err := c.changeMark(ctx)
	if err != nil {
		return err
	}
	return c.load(ctx, mark)
}

func (c *Checker) load(ctx context.Context, mark string) error {
	projects, err := ListProjects(ctx, c.s)
	if err != nil {
		return fmt.Errorf("load keys: %w", err)
	}
	plans := make(map[string]string, len(projects))
	for _, p := range projects {
		plans[p.ID] = p.Plan
	}
	res, err := c.s.Query(ctx, `SELECT key_hash, argMax(project_id, updated_at), argMax(revoked, updated_at),
			argMax(services, updated_at)
		FROM api_keys GROUP BY key_hash`, nil)
	if err != nil {
		return fmt.Errorf("load keys: %w", err)
	}
	known := make(map[string]Key, len(res.Rows))
	for _, r := range res.Rows {
		if r[2].(bool) {
			continue
		}
		h, pid := r[0].(string), r[1].(string)
		plan, ok := plans[pid]
		if !ok {
			plan = DefaultPlan
		}
		known[h] = Key{ID: keyIDOf(h), ProjectID: pid, Plan: plan, Services: strs(r[3])}
	}
	c.mu.Lock()
	c.known, c.plans = known, plans
	c.mu.Unlock()
	c.markMu.Lock()
	c.mark = mark
	c.markMu.Unlock()
	return nil
}

// changeMark sums up the state of the keys and projects: it changes with
// every row written to either (each write has a later updated_at or adds
// a row), and reading it costs two tiny aggregates.
func (c *Checker) changeMark(ctx context.Context) (string, error) {
	res, err := c.s.Query(ctx, `SELECT
		(SELECT toString(count()) || '/' || toString(max(updated_at)) FROM api_keys),
		(SELECT toString(count()) || '/' || toString(max(updated_at)) FROM api_projects)`, nil)
	if err != nil {
		return "", fmt.Errorf("check keys: %w", err)
	}
	return fmt.Sprint(res.Rows[0][0], " ", res.Rows[0][1]), nil
}

// Sync reloads keys and plans if either changed since the last load, and
// reports whether it did.
func (c *Checker) Sync(ctx context.Context) (bool, error) {
	mark, err := c.changeMark(ctx)
	if err != nil {
		return false, err
	}
	c.markMu.Lock()
	same := mark == c.mark
	c.markMu.Unlock()
	if same {
		return false, nil
	}
	return true, c.load(ctx, mark)
}

// Run refreshes every interval until ctx ends.
func (c *Checker) Run(ctx context.Context, interval time.Duration) {
	c.Watch(ctx, interval, nil)
}

// Watch calls Sync every interval until ctx ends, so a key revoked or a
// plan changed by any process takes effect within one interval. onErr,
// when set, is told of failed checks.
func (c *Checker) Watch(ctx context.Context, interval time.Duration, onErr func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := c.Sync(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}

// Forget drops the key of id from memory at once and remembers it as
// unknown, so a key just revoked in the store fails from the next
// request on, before the next change check; a later lookup finds it
// revoked in the store.
func (c *Checker) Forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, k := range c.known {
		if k.ID == id {
			delete(c.known, h)
			c.unknown[h] = time.Now()
		}
	}
}
