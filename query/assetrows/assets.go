package assetrows

import (
	"context"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/store"
)

// StateSource holds states in memory (a serving index). Lookup adds to
// into the state of each key it knows, leaving out the keys it knows have
// nothing stored, and returns the keys it does not know, which are read
// from the store. States it hands out are never modified afterwards.
type StateSource interface {
	Lookup(keys []solana.Pubkey, into map[solana.Pubkey]*asset.State) (unknown []solana.Pubkey)
}

// Loader returns the asset.LoadFunc that asset.Render loads states with:
// from src what it knows (when src is not nil), the rest from the store.
func Loader(ctx context.Context, s store.Querier, src StateSource) asset.LoadFunc {
	return func(keys []solana.Pubkey, into map[solana.Pubkey]*asset.State) error {
		if len(keys) == 0 {
			return nil
		}
		if src != nil {
			keys = src.Lookup(keys, into)
			if len(keys) == 0 {
				return nil
			}
		}
		loaded, err := Load(ctx, s, keys)
		if err != nil {
			return err
		}
		for k, v := range loaded {
			into[k] = v
		}
		return nil
	}
}
