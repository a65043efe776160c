package asset

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
)

// fromCNFTRows folds a compressed NFT's events. A decompressed asset whose
// Token Metadata accounts are indexed is rendered as the regular NFT it
// became.
func fromCNFTRows(id solana.Pubkey, st *State, states map[solana.Pubkey]*State, edition solana.Pubkey, opts Options) (*Asset, error) {
	evs := make([]bubblegum.Event, 0, len(st.Events))
	for _, e := range st.Events {
		ev, err := bubblegum.UnmarshalEvent(e.Payload)
		if err != nil {
			return nil, err
		}
		evs = append(evs, *ev)
	}
	cs, err := bubblegum.FoldCNFT(evs)
	if err != nil {
		return nil, fmt.Errorf("bubblegum: %w", err)
	}
	if cs.Decompressed && len(st.Accounts) > 0 {
		return fromTokenRows(id, st, states[edition], opts)
	}
	if cs.Metadata == nil || !cs.HasLeaf || !cs.HasOwner {
		return nil, ErrNotFound // its mint is not indexed yet
	}
	return FromCNFT(cs, opts)
}
