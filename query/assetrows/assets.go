package assetrows

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/das"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Result is the answer for one requested id: an asset, or why there is
// none (asset.ErrNotFound, asset.ErrNoSupply, or a decoding failure).
type Result struct {
	Asset *asset.Asset
	Err   error
}

// StateSource holds states in memory (a serving index). Lookup adds to
// into the state of each key it knows, leaving out the keys it knows have
// nothing stored, and returns the keys it does not know, which are read
// from the store. States it hands out are never modified afterwards.
type StateSource interface {
	Lookup(keys []solana.Pubkey, into map[solana.Pubkey]*State) (unknown []solana.Pubkey)
}

// Assets renders the assets of ids, in order (an id may repeat). It reads
// the store once for the ids and the addresses derived from them (edition
// PDAs), and once more only when a Core asset's collection is needed.
func Assets(ctx context.Context, s store.Querier, ids []solana.Pubkey, opts asset.Options) ([]Result, error) {
	return AssetsFrom(ctx, s, nil, ids, opts)
}

// AssetsFrom is Assets reading states from src first (when not nil) and
// from the store only for the keys src does not know.
func AssetsFrom(ctx context.Context, s store.Querier, src StateSource, ids []solana.Pubkey, opts asset.Options) ([]Result, error) {
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
	states := make(map[solana.Pubkey]*State, len(keys))
	if err := fetch(ctx, s, src, keys, states); err != nil {
		return nil, err
	}
	// Core assets managed by a collection answer with the collection's
	// authority: load the collections not loaded yet.
	cs := cores{}
	var more []solana.Pubkey
	for _, id := range ids {
		if c, ok := cs.collection(states[id]); ok && !seen[c] {
			seen[c] = true
			more = append(more, c)
		}
	}
	if err := fetch(ctx, s, src, more, states); err != nil {
		return nil, err
	}
	out := make([]Result, len(ids))
	for i, id := range ids {
		a, err := render(id, states, cs, editions[id], opts)
		if err != nil {
			err = fmt.Errorf("asset %s: %w", id, err)
		}
		out[i] = Result{Asset: a, Err: err}
	}
	return out, nil
}

// fetch adds the states of keys to states: from src what it knows, the
// rest from the store.
func fetch(ctx context.Context, s store.Querier, src StateSource, keys []solana.Pubkey, states map[solana.Pubkey]*State) error {
	if len(keys) == 0 {
		return nil
	}
	if src != nil {
		keys = src.Lookup(keys, states)
		if len(keys) == 0 {
			return nil
		}
	}
	loaded, err := Load(ctx, s, keys)
	if err != nil {
		return err
	}
	for k, v := range loaded {
		states[k] = v
	}
	return nil
}

// render builds the asset id from the loaded states.
func render(id solana.Pubkey, states map[solana.Pubkey]*State, cs cores, edition solana.Pubkey, opts asset.Options) (*asset.Asset, error) {
	st := states[id]
	if st == nil || st.Empty() {
		return nil, asset.ErrNotFound
	}
	if len(st.Events) > 0 {
		return renderCNFT(id, st, states, edition, opts)
	}
	if st.Find(schema.AssetKindCore, id) != nil {
		return renderCore(id, cs, states, opts)
	}
	return renderToken(id, st, states[edition], opts)
}
