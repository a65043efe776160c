package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getLatestCompressionSignatures lists every transaction that touched
// compressed state, newest first.
func getLatestCompressionSignatures(d Deps) jsonrpc.Handler {
	fields := []string{"limit", "cursor"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p sigParams
		if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		page, err := sigPage(&p, slot)
		if err != nil {
			return nil, err
		}
		items, err := compressed.LatestSignatures(ctx, d.Store, page)
		if err != nil {
			return nil, err
		}
		return encodeSignatures(slot, items, &page.Limit), nil
	}
}
