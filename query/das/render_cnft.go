package das

import (
	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/solana"
)

func renderCNFT(id solana.Pubkey, st *State, states map[solana.Pubkey]*State, edition solana.Pubkey, opts asset.Options) (*asset.Asset, error) {
	return nil, asset.ErrNotFound
}
