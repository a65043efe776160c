package assetrows

import (
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
)

// renderCNFT folds a compressed NFT's events. A decompressed asset whose
// Token Metadata accounts are indexed is rendered as the regular NFT it
// became.
func renderCNFT(id solana.Pubkey, st *State, states map[solana.Pubkey]*State, edition solana.Pubkey, opts asset.Options) (*asset.Asset, error) {
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
		return renderToken(id, st, states[edition], opts)
	}
	if cs.Metadata == nil || !cs.HasLeaf || !cs.HasOwner {
		return nil, asset.ErrNotFound // its mint is not indexed yet
	}
	return asset.FromCNFT(cs, opts)
}
