package assetbench

import (
	"context"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// probeIDs is how many ids of each kind the probe renders.
const probeIDs = 32

// probe renders a few ids of each kind through the query layer. A kind
// answered "not found" for every id is one this build does not render yet
// (its renderer is not in): it is reported and left out of the measured
// mix. Any other failure, or a kind rendered for some ids only, is an
// error: every generated asset is a real asset.
func probe(ctx context.Context, s arrowstore.Store, p *Plan) (unserved []Kind, err error) {
	for k := range NumKinds {
		pool := p.ByKind[k]
		if len(pool) == 0 {
			continue
		}
		ids := make([]solana.Pubkey, min(probeIDs, len(pool)))
		for j := range ids {
			ids[j] = p.ID(int(pool[j*len(pool)/len(ids)]))
		}
		res, err := asset.Render(ids, assetrows.Loader(ctx, s, nil), asset.Options{})
		if err != nil {
			return nil, fmt.Errorf("probe %s: %w", k, err)
		}
		missing := 0
		for j, r := range res {
			switch {
			case errors.Is(r.Err, asset.ErrNotFound):
				missing++
			case r.Err != nil:
				return nil, fmt.Errorf("probe %s: %w", k, r.Err)
			case r.Asset == nil || r.Asset.ID != ids[j].String():
				return nil, fmt.Errorf("probe %s: asked for %s, rendered %+v", k, ids[j], r.Asset)
			}
		}
		switch missing {
		case 0:
		case len(ids):
			unserved = append(unserved, k)
		default:
			return nil, fmt.Errorf("probe %s: %d of %d generated assets not found", k, missing, len(ids))
		}
	}
	return unserved, nil
}
