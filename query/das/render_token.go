package das

import (
	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/ingest/solana"
)

func renderToken(id solana.Pubkey, st, edition *State, opts asset.Options) (*asset.Asset, error) {
	return nil, asset.ErrNotFound
}
