package assetstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store"
)

// foldSpan is what a fold knows of the checkpoint: asset_docs holds one
// document per id and a fold overwrites it before the checkpoint covers
// the slots it read, so the fold keeps what readers stamped with the
// checkpoint must still see (keepPrevious).
type foldSpan struct {
	// from is the first slot of the range folded; 0 outside a range (a
	// refold for off-chain documents, which carry no slot).
	from uint64
	// indexed is the checkpoint when the fold began, if hasIndexed.
	indexed    uint64
	hasIndexed bool
}

// spanOf reads the checkpoint for a fold of the range starting at from.
func spanOf(ctx context.Context, s store.Querier, from uint64) (foldSpan, error) {
	c, err := checkpoint.ContextSlot(ctx, s)
	if errors.Is(err, checkpoint.ErrNotIndexed) {
		return foldSpan{from: from}, nil
	}
	if err != nil {
		return foldSpan{}, err
	}
	return foldSpan{from: from, indexed: c, hasIndexed: true}, nil
}

// covered reports whether the checkpoint has reached slot, so that every
// reader sees a document visible from it.
func (sp foldSpan) covered(slot uint64) bool { return sp.hasIndexed && slot <= sp.indexed }

// keepPrevious sets the slot each of docs is visible from and returns the
// asset_docs_prev rows to write before them: for each document replacing
// one the checkpoint covers, the replaced one. A document replacing one
// the checkpoint does not cover leaves the kept row as it is: it still is
// the newest version at or below the checkpoint, which only grows. So a
// reader stamped with slot S, at or above the checkpoint of any fold,
// answers the document if visible at S, else the kept one if visible at
// S, else nothing (assetrows.AsOf).
func keepPrevious(ctx context.Context, s store.Querier, sp foldSpan, docs []DocRow) ([]PrevDocRow, error) {
	ids := make([]solana.Pubkey, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	existing, err := assetrows.LoadFolded(ctx, s, ids)
	if err != nil {
		return nil, fmt.Errorf("keep previous documents: %w", err)
	}
	var out []PrevDocRow
	for i := range docs {
		d := &docs[i]
		old, had := existing[d.ID]
		if had && old.Status == d.Status && old.Error == d.Error && bytes.Equal(old.Doc, d.Doc) {
			// Unchanged: visible since it was.
			d.Visible = old.Slot
			continue
		}
		// A change found by a fold of slots past the checkpoint happened
		// in them, whatever the newest row it read.
		d.Visible = d.Slot
		if sp.from > 0 && !sp.covered(sp.from) {
			d.Visible = max(d.Visible, sp.from)
		}
		if !had || sp.covered(d.Visible) || !sp.covered(old.Slot) {
			continue
		}
		out = append(out, PrevDocRow{DocRow{StateRow: &StateRow{ID: d.ID, Status: old.Status, Error: old.Error,
			Doc: old.Doc}, Visible: old.Slot}})
	}
	return out, nil
}
