package asset

import (
	"fmt"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/schema"
)

// Result is the answer for one requested id: an asset, or why there is
// none (ErrNotFound, ErrNoSupply, or a decoding failure).
type Result struct {
	Asset *Asset
	// JSON, set instead of Asset, is the asset's encoding as View gives
	// it, without last_indexed_slot: readers of folded documents answer
	// it as it is, without decoding it (ViewJSON).
	JSON []byte
	Err  error
}

// Decoded returns the asset, decoding r.JSON when that is what r holds.
func (r Result) Decoded() (*Asset, error) {
	if r.Asset != nil || r.JSON == nil {
		return r.Asset, nil
	}
	var a Asset
	if err := json.Unmarshal(r.JSON, &a); err != nil {
		return nil, fmt.Errorf("asset document: %w", err)
	}
	return &a, nil
}

// Answer is the asset's JSON with last_indexed_slot set to slot.
func (r Result) Answer(slot uint64) (json.RawMessage, error) {
	if r.JSON != nil {
		return WithSlot(make([]byte, 0, len(r.JSON)+40), r.JSON, slot), nil
	}
	if r.Asset == nil {
		return nil, ErrNotFound
	}
	a := *r.Asset
	a.LastIndexedSlot = &slot
	return json.Marshal(&a)
}

// LoadFunc adds to into the state stored under each of keys (none may be
// asked for), leaving out the keys with nothing stored.
// query/assetrows.Loader reads them from the store.
type LoadFunc func(keys []solana.Pubkey, into map[solana.Pubkey]*State) error

// Render renders the assets of ids, in order (an id may repeat), from the
// states load returns. It loads the ids, then the edition PDAs of those
// whose mint can have one (editionPossible: most assets need no second
// key), then the collections of Core assets that are managed by one.
func Render(ids []solana.Pubkey, load LoadFunc, opts Options) ([]Result, error) {
	seen := make(map[solana.Pubkey]bool, 2*len(ids))
	var keys []solana.Pubkey
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			keys = append(keys, id)
		}
	}
	states := make(map[solana.Pubkey]*State, 2*len(keys))
	if err := load(keys, states); err != nil {
		return nil, err
	}
	editions := make(map[solana.Pubkey]solana.Pubkey, len(keys))
	var more []solana.Pubkey
	for _, id := range keys {
		// Token Metadata makes a master edition only for a mint of supply
		// one, and no supply can be minted after it: a larger supply has
		// no edition to read.
		st := states[id]
		if st == nil || !editionPossible(st.OfKind(schema.AssetKindMint)) {
			continue
		}
		ed := metadata.EditionPDA(id)
		editions[id] = ed
		if !seen[ed] {
			seen[ed] = true
			more = append(more, ed)
		}
	}
	if err := load(more, states); err != nil {
		return nil, err
	}
	// Core assets managed by a collection answer with the collection's
	// authority: load the collections not loaded yet.
	cs := cores{}
	more = more[:0]
	for _, id := range keys {
		if c, ok := cs.collection(states[id]); ok && !seen[c] {
			seen[c] = true
			more = append(more, c)
		}
	}
	if err := load(more, states); err != nil {
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

// editionPossible reports whether the asset of mints (its mint account,
// if stored) can have an edition: a mint of supply at most one.
func editionPossible(mints []Account) bool {
	return len(mints) > 0 && mints[0].Amount <= 1
}

// render builds the asset id from the loaded states.
func render(id solana.Pubkey, states map[solana.Pubkey]*State, cs cores, edition solana.Pubkey, opts Options) (*Asset, error) {
	st := states[id]
	if st == nil || st.Empty() {
		return nil, ErrNotFound
	}
	if len(st.Events) > 0 {
		return fromCNFTRows(id, st, states, edition, opts)
	}
	if st.Find(schema.AssetKindCore, id) != nil {
		return fromCoreRows(id, cs, states, opts)
	}
	return fromTokenRows(id, st, states[edition], opts)
}
