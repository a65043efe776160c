package das

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/das"
	"github.com/dasch-labs/dasch/ingest/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Result is the answer for one requested id: an asset, or why there is
// none (asset.ErrNotFound, asset.ErrNoSupply, or a decoding failure).
type Result struct {
	Asset *asset.Asset
	Err   error
}

// Assets renders the assets of ids, in order (an id may repeat). It reads
// the store once for the ids and the addresses derived from them (edition
// PDAs), and once more only when a Core asset's collection is needed.
func Assets(ctx context.Context, s store.Store, ids []solana.Pubkey, opts asset.Options) ([]Result, error) {
	editions := make(map[solana.Pubkey]solana.Pubkey, len(ids))
	keys := make([]solana.Pubkey, 0, 2*len(ids))
	seen := make(map[solana.Pubkey]bool, 2*len(ids))
	add := func(k solana.Pubkey) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, id := range ids {
		if _, ok := editions[id]; !ok {
			editions[id] = das.EditionPDA(id)
		}
		add(id)
		add(editions[id])
	}
	states, err := Load(ctx, s, keys)
	if err != nil {
		return nil, err
	}
	// Core assets managed by a collection answer with the collection's
	// authority: load the collections not loaded yet.
	var more []solana.Pubkey
	for _, id := range ids {
		if c, ok := coreCollection(states[id]); ok && states[c] == nil && !seen[c] {
			seen[c] = true
			more = append(more, c)
		}
	}
	if len(more) > 0 {
		extra, err := Load(ctx, s, more)
		if err != nil {
			return nil, err
		}
		for k, v := range extra {
			states[k] = v
		}
	}
	out := make([]Result, len(ids))
	for i, id := range ids {
		a, err := render(id, states, editions[id], opts)
		if err != nil {
			err = fmt.Errorf("asset %s: %w", id, err)
		}
		out[i] = Result{Asset: a, Err: err}
	}
	return out, nil
}

// render builds the asset id from the loaded states.
func render(id solana.Pubkey, states map[solana.Pubkey]*State, edition solana.Pubkey, opts asset.Options) (*asset.Asset, error) {
	st := states[id]
	if st == nil || st.Empty() {
		return nil, asset.ErrNotFound
	}
	if len(st.Events) > 0 {
		return renderCNFT(id, st, states, edition, opts)
	}
	if core := st.Find(schema.AssetKindCore, id); core != nil {
		return renderCore(id, core, states, opts)
	}
	return renderToken(id, st, states[edition], opts)
}
