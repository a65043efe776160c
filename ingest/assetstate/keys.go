package assetstate

import (
	"context"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// previous is what an asset's last fold wrote that the next one needs.
type previous struct {
	keys    []assetKey
	created uint64
}

// loadPrevious reads the last folded state of ids: the keys it was listed
// under and when it was first seen.
func loadPrevious(ctx context.Context, s store.Querier, ids []solana.Pubkey) (map[solana.Pubkey]previous, error) {
	out := make(map[solana.Pubkey]previous, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	cond, params := assetrows.KeyIn("id", ids)
	res, err := s.Query(ctx, `SELECT id, keys, created_slot, interface, burnt, frozen FROM asset_state FINAL
		WHERE `+cond+` SETTINGS max_threads = 1`, params)
	if err != nil {
		return nil, fmt.Errorf("load previous folds: %w", err)
	}
	for i := range res.Rows {
		r := res.Row(i)
		id, keys, created := solana.Pubkey(r.Key(0)), r.Strs(1), r.U64(2)
		searched := Listing{Interface: r.Str(3), Burnt: r.Bool(4), Frozen: r.Bool(5)}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("load previous folds: %w", err)
		}
		p := previous{created: created}
		for _, k := range keys {
			dk, err := decodeKey([]byte(k))
			if err != nil {
				return nil, fmt.Errorf("previous fold of %s: %w", id, err)
			}
			p.keys = append(p.keys, dk)
		}
		// Folds before migration 39 stored no search keys in keys; the
		// columns say which rows that migration filed.
		for _, k := range searchKeysOf(&searched) {
			if !slices.ContainsFunc(p.keys, func(o assetKey) bool { return o.path == k.path && o.key == k.key }) {
				p.keys = append(p.keys, k)
			}
		}
		out[id] = p
	}
	return out, nil
}

// keyRows are the asset_keys and asset_editions rows of a fold of rows
// at version v: every current key, and a tombstone for each key the
// previous fold listed the asset under that it no longer has. It also
// keeps created_slot from moving forward: rows older than the kept ones
// may have been replaced.
func keyRows(rows []StateRow, prev map[solana.Pubkey]previous, v uint64) ([]KeyRow, []EditionRow) {
	var out []KeyRow
	var editions []EditionRow
	for i := range rows {
		r := &rows[i]
		p := prev[r.ID]
		if p.created != 0 && (r.CreatedSlot == 0 || p.created < r.CreatedSlot) {
			r.CreatedSlot = p.created
		}
		for _, k := range r.keys {
			if k.path == schema.AssetPathEdition {
				editions = append(editions, EditionRow{Master: k.key, Edition: r.Edition, Mint: r.ID,
					Number: k.number, Slot: r.Slot, Version: v})
				continue
			}
			kr := KeyRow{Path: k.path, Key: k.key, ID: r.ID, Verified: k.verified,
				Slot: r.Slot, CreatedSlot: r.CreatedSlot, Version: v}
			if k.path != schema.AssetPathDepends && k.path != schema.AssetPathJSONURI {
				// Listed: a page reads the document, and a search its
				// conditions, in the same range.
				kr.Doc, kr.Listing = r.Doc, &r.Listing
			}
			out = append(out, kr)
		}
	next:
		for _, old := range p.keys {
			for _, k := range r.keys {
				if k.path == old.path && k.key == old.key {
					continue next
				}
			}
			if old.path == schema.AssetPathEdition {
				editions = append(editions, EditionRow{Master: old.key, Edition: r.Edition, Mint: r.ID, Version: v, Deleted: true})
				continue
			}
			out = append(out, KeyRow{Path: old.path, Key: old.key, ID: r.ID, Version: v, Deleted: true})
		}
	}
	return out, editions
}
