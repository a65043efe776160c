package compressed

import dq "github.com/dasch-labs/dasch/query"

// The context slot lives in package query; these names keep the compressed
// read layer self-contained for its callers.
var (
	ErrNotIndexed = dq.ErrNotIndexed
	ContextSlot   = dq.ContextSlot
	NewSlotCache  = dq.NewSlotCache
)

// SlotCache is dq.SlotCache.
type SlotCache = dq.SlotCache
