// Package api holds the JSON-RPC methods, one file per method, and wires
// them into a jsonrpc.Registry.
package api

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// SlotSource reports the last slot the indexer has fully stored.
type SlotSource interface {
	IndexedSlot(ctx context.Context) (uint64, error)
}

// Deps are what the methods read from.
type Deps struct {
	Slots SlotSource
}

// Register adds every method to r. A missing dependency is a wiring bug and
// panics at startup.
func Register(r *jsonrpc.Registry, deps Deps) {
	if deps.Slots == nil {
		panic("api: Deps.Slots is nil")
	}
	r.Register("getIndexerSlot", getIndexerSlot(deps.Slots))
}
