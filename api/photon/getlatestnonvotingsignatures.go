package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getLatestNonVotingSignatures lists every indexed transaction that is not
// a vote, newest first. It takes a limit and cursor like the paginated
// signature methods, but its value is {"items":[…]} without a cursor
// member, and each item carries the transaction's error.
func getLatestNonVotingSignatures(d Deps) jsonrpc.Handler {
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
		items, err := compressed.LatestNonVotingSignatures(ctx, d.Store, page)
		if err != nil {
			return nil, err
		}
		return encodeSignaturesWithError(slot, items), nil
	}
}

// encodeSignaturesWithError writes {"items":[…]}, each item with "error".
func encodeSignaturesWithError(slot uint64, items []compressed.TxSignature) json.RawMessage {
	b := openContext(make([]byte, 0, 96+len(items)*160), slot)
	b = append(b, `{"items":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"signature":`...)
		b = appendBase58(b, it.Signature[:])
		b = append(b, `,"slot":`...)
		b = appendU64(b, it.Slot)
		b = append(b, `,"blockTime":`...)
		b = appendU64(b, uint64(max(it.BlockTime, 0)))
		b = append(b, `,"error":`...)
		if it.Err == nil {
			b = append(b, "null"...)
		} else {
			s, _ := json.Marshal(*it.Err)
			b = append(b, s...)
		}
		b = append(b, '}')
	}
	return closeContext(append(b, "]}"...))
}
