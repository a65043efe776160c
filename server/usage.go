package server

import "sync"

// UsageRecorder counts calls for usage reporting. Record is called once per
// call that reached a registered method's handler, after it finished, so
// unknown method names (arbitrary client input) never become keys.
type UsageRecorder interface {
	Record(projectID, method string, ok bool)
}

// UsageKey identifies one counter.
type UsageKey struct {
	ProjectID string
	Method    string
}

// UsageCount is what was counted for one key.
type UsageCount struct {
	OK     uint64
	Failed uint64
}

// UsageCounter is an in-memory UsageRecorder; a reporter drains it
// periodically.
type UsageCounter struct {
	mu     sync.Mutex
	counts map[UsageKey]UsageCount
}

// NewUsageCounter returns an empty counter.
func NewUsageCounter() *UsageCounter {
	return &UsageCounter{counts: make(map[UsageKey]UsageCount)}
}

// Record implements UsageRecorder.
func (u *UsageCounter) Record(projectID, method string, ok bool) {
	k := UsageKey{ProjectID: projectID, Method: method}
	u.mu.Lock()
	c := u.counts[k]
	if ok {
		c.OK++
	} else {
		c.Failed++
	}
	u.counts[k] = c
	u.mu.Unlock()
}

// Snapshot returns a copy of the counters.
func (u *UsageCounter) Snapshot() map[UsageKey]UsageCount {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[UsageKey]UsageCount, len(u.counts))
	for k, v := range u.counts {
		out[k] = v
	}
	return out
}

// Drain returns the counters and resets them, so each report covers only
// what happened since the previous one.
func (u *UsageCounter) Drain() map[UsageKey]UsageCount {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := u.counts
	u.counts = make(map[UsageKey]UsageCount, len(out))
	return out
}
