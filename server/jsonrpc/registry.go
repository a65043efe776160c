package jsonrpc

import (
	"context"
	"sort"

	"github.com/goccy/go-json"
)

// Call is one request as a handler sees it.
type Call struct {
	// Method is the JSON-RPC method name.
	Method string
	// Params is the raw params object or array, nil when absent or null.
	// Decode it with DecodeParams.
	Params json.RawMessage
	// ProjectID is the project the api key belongs to.
	ProjectID string
	// ID is the request id exactly as sent, nil when absent.
	ID json.RawMessage
}

// Handler serves one method. A *jsonrpc.Error goes to the client as is; any
// other error is logged and reported as "Internal error"; an error wrapping
// context.DeadlineExceeded is reported as a gateway timeout. ctx carries the
// request deadline and must be honoured by anything that blocks.
type Handler func(ctx context.Context, c *Call) (any, error)

// Registry maps method names to handlers. Register everything before the
// server starts: lookups are not synchronised with registration.
type Registry struct {
	handlers map[string]Handler
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{handlers: make(map[string]Handler)}
}

// Register adds a method. Registering a name twice or a nil handler is a
// wiring bug, so it panics at startup rather than shadowing silently.
func (r *Registry) Register(name string, h Handler) {
	if name == "" || h == nil {
		panic("jsonrpc: Register needs a method name and a handler")
	}
	if _, dup := r.handlers[name]; dup {
		panic("jsonrpc: method " + name + " registered twice")
	}
	r.handlers[name] = h
}

// Lookup returns the handler for name.
func (r *Registry) Lookup(name string) (Handler, bool) {
	h, ok := r.handlers[name]
	return h, ok
}

// Methods returns the registered method names, sorted.
func (r *Registry) Methods() []string {
	names := make([]string, 0, len(r.handlers))
	for n := range r.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
