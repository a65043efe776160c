package das

import (
	"context"
	"errors"
	"strconv"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/query/cnftproofs"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type getAssetProofBatchParams struct {
	IDs *AssetIDs `json:"ids"`
}

var getAssetProofBatchFields = []string{"ids"}

// getAssetProofBatch returns an object mapping each requested id (base58)
// to its proof, or null when it has none.
func getAssetProofBatch(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getAssetProofBatchParams
		if err := decode(c.Params, &p, getAssetProofBatchFields); err != nil {
			return nil, err
		}
		if p.IDs == nil {
			return nil, invalidParams("Invalid params: missing field `ids`")
		}
		if len(*p.IDs) > maxBatch {
			return nil, invalidParams("Invalid params: `ids` has " + strconv.Itoa(len(*p.IDs)) +
				" ids, at most " + strconv.Itoa(maxBatch))
		}
		ids := make([]solana.Pubkey, len(*p.IDs))
		for i, id := range *p.IDs {
			ids[i] = solana.Pubkey(id)
		}
		slot, res, err := d.proofs(ctx, ids)
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		out := make(map[string]*AssetProof, len(ids))
		for _, id := range ids {
			r := res[id]
			switch {
			case r.Err == nil:
				out[id.String()] = proofJSON(r.Proof, slot)
			case errors.Is(r.Err, cnftproofs.ErrNotFound):
				out[id.String()] = nil
			case errors.Is(r.Err, cnftproofs.ErrIncomplete):
				// At debug: a batch over an incomplete tree would log each id.
				d.Logger.Debug("asset proof does not verify", "asset", id.String(), "err", r.Err)
				out[id.String()] = nil
			default:
				return nil, failed(d, c.Method, r.Err)
			}
		}
		return out, nil
	}
}
