package das

import (
	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/solana"
)

// coreCollection returns the collection a Core asset's update authority
// names, if st is such an asset.
func coreCollection(st *State) (solana.Pubkey, bool) {
	return solana.Pubkey{}, false
}

func renderCore(id solana.Pubkey, acc *Account, states map[solana.Pubkey]*State, opts asset.Options) (*asset.Asset, error) {
	return nil, asset.ErrNotFound
}
