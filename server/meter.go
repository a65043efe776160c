package server

import (
	"context"
	"time"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// Key is a valid api key as a Meter sees it: never the key itself.
type Key struct {
	ProjectID string
	// ID is the key's public id, logged in its place.
	ID string
	// Plan is the project's plan.
	Plan string
	// Services are the service classes the key may use; nil: all.
	Services []string
}

// KeyResolver is a KeyChecker that tells a Meter more of each key. The
// server uses it instead of CheckKey and KnownKey when it has one.
type KeyResolver interface {
	ResolveKey(ctx context.Context, key string) (Key, bool, error)
	// KnownResolvedKey answers from memory alone (MemoryKeyChecker).
	KnownResolvedKey(key string) (Key, bool)
}

// Meter rations, prices and records requests. Admit is asked before a
// call runs and may refuse it (a rate limit, a service the key may not
// use); Record is told of every request once its answer is built. Both
// run on the request's goroutine, so they must be quick and never block:
// an answer does not wait for its record to be stored.
type Meter interface {
	Admit(k *Key, method string, now time.Time) *jsonrpc.Error
	Record(e *Entry)
}

// Entry is one request as answered.
type Entry struct {
	At time.Time
	// Key is nil for a request refused before its key was valid.
	Key *Key
	// Method is the method called when it is one the server serves,
	// else empty (unknown, or not a request at all).
	Method string
	// Ran: the call reached its handler.
	Ran bool
	// HTTPStatus is this request's own status (a batch's answer may
	// travel with 200); Code its JSON-RPC error code, 0 for a result.
	HTTPStatus int
	Code       int
	// RequestBytes is the HTTP request's body, BatchSize the requests
	// in it, ResponseBytes this request's encoded answer.
	RequestBytes, ResponseBytes, BatchSize int
	Latency                                time.Duration
	// Slot is the slot the answer is consistent with, when HasSlot.
	Slot    uint64
	HasSlot bool
}
