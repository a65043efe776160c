package photon

import (
	"context"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
)

// sigParams are the params of the paginated signature methods. The cursor
// is a plain string that Photon decodes in the handler, so its errors are
// validation errors (-32000), not param errors.
type sigParams struct {
	Owner   *Pubkey `json:"owner"`
	Address *Pubkey `json:"address"`
	Limit   *Limit  `json:"limit"`
	Cursor  *string `json:"cursor"`
}

// sigPage turns the limit and cursor into a page of the answer stamped
// with slot, which holds nothing later.
func sigPage(p *sigParams, slot uint64) (compressed.SigPage, error) {
	page := compressed.SigPage{Limit: limitOr(p.Limit), AsOf: &slot}
	if p.Cursor == nil {
		return page, nil
	}
	raw, err := decodeBase58(*p.Cursor)
	if err != nil {
		return page, validationError("Invalid cursor " + jsonrpc.Clip(*p.Cursor))
	}
	before, ok := compressed.SigCursorFrom(raw)
	if !ok {
		return page, cursorLengthError(compressed.SigCursorLen, len(raw))
	}
	page.Before = &before
	return page, nil
}

// sigLister reads one page for one key.
type sigLister func(ctx context.Context, s store.Querier, k compressed.Key, p compressed.SigPage) ([]compressed.SignatureInfo, error)

// keyedSignatures serves a signature method keyed by the field named key
// (owner or address): newest first, slot then signature descending.
func keyedSignatures(d Deps, key string, list sigLister) jsonrpc.Handler {
	fields := []string{key, "limit", "cursor"}
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p sigParams
		if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
			return nil, err
		}
		k := p.Owner
		if key == "address" {
			k = p.Address
		}
		if k == nil {
			return nil, jsonrpc.MissingField(key)
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		page, err := sigPage(&p, slot)
		if err != nil {
			return nil, err
		}
		items, err := list(ctx, d.Store, compressed.Key(*k), page)
		if err != nil {
			return nil, err
		}
		return encodeSignatures(slot, items, &page.Limit), nil
	}
}

// encodeSignatures writes {"items":[…],"cursor":…}; a nil limit writes a
// list without a cursor member.
func encodeSignatures(slot uint64, items []compressed.SignatureInfo, limit *uint64) json.RawMessage {
	b := openContext(make([]byte, 0, 96+len(items)*140), slot)
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
		b = append(b, '}')
	}
	b = append(b, ']')
	if limit != nil {
		b = append(b, ',')
		b = appendCursor(b, len(items), *limit, func() []byte {
			last := items[len(items)-1]
			return compressed.SigCursor{Slot: last.Slot, Signature: last.Signature}.Bytes()
		})
	}
	return closeContext(append(b, '}'))
}
