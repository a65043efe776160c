package das

import (
	"context"
	"errors"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/b58"
	"github.com/dasch-labs/dasch/query/cnftproofs"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

type getAssetProofParams struct {
	ID *AssetID `json:"id"`
}

var getAssetProofFields = []string{"id"}

// AssetProof is the reference's proof shape, base58 throughout, with the
// leaf's data and creator hashes (what Bubblegum instructions take beside
// the proof) and, as every dasch asset answer, last_indexed_slot.
type AssetProof struct {
	Root            string   `json:"root"`
	Proof           []string `json:"proof"`
	NodeIndex       uint64   `json:"node_index"`
	Leaf            string   `json:"leaf"`
	TreeID          string   `json:"tree_id"`
	DataHash        *string  `json:"data_hash,omitempty"`
	CreatorHash     *string  `json:"creator_hash,omitempty"`
	LastIndexedSlot uint64   `json:"last_indexed_slot"`
}

func proofJSON(p *cnftproofs.Proof, slot uint64) *AssetProof {
	out := &AssetProof{
		Root: b58.Encode(p.Root[:]), NodeIndex: p.NodeIndex, Leaf: b58.Encode(p.Leaf[:]),
		TreeID: b58.Encode(p.Tree[:]), Proof: make([]string, len(p.Proof)), LastIndexedSlot: slot,
	}
	for i, n := range p.Proof {
		out.Proof[i] = b58.Encode(n[:])
	}
	if p.DataHash != nil && p.CreatorHash != nil {
		dh, ch := b58.Encode(p.DataHash[:]), b58.Encode(p.CreatorHash[:])
		out.DataHash, out.CreatorHash = &dh, &ch
	}
	return out
}

// proofs reads the proofs of ids and the slot they reflect at least: read
// first, so the nodes read after it are as new or newer.
func (d Deps) proofs(ctx context.Context, ids []solana.Pubkey) (uint64, map[solana.Pubkey]cnftproofs.Result, error) {
	slot, err := d.Slots.IndexedSlot(ctx)
	if err != nil {
		return 0, nil, err
	}
	res, err := cnftproofs.Proofs(ctx, d.Store, ids)
	return slot, res, err
}

// getAssetProof returns the Merkle proof of a compressed NFT's leaf
// against its tree's current root.
func getAssetProof(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		var p getAssetProofParams
		if err := decode(c.Params, &p, getAssetProofFields); err != nil {
			return nil, err
		}
		if p.ID == nil {
			return nil, invalidParams("Invalid params: missing field `id`")
		}
		id := solana.Pubkey(*p.ID)
		slot, res, err := d.proofs(ctx, []solana.Pubkey{id})
		if err != nil {
			return nil, failed(d, c.Method, err)
		}
		r := res[id]
		switch {
		case errors.Is(r.Err, cnftproofs.ErrNotFound):
			return nil, notFound("Asset Proof for " + id.String() + " Not Found")
		case errors.Is(r.Err, cnftproofs.ErrIncomplete):
			d.Logger.Warn("asset proof does not verify", "asset", id.String(), "err", r.Err)
			return nil, notFound("Asset Proof for " + id.String() + " Not Found: the indexed history of its tree is incomplete")
		case r.Err != nil:
			return nil, failed(d, c.Method, r.Err)
		}
		return proofJSON(r.Proof, slot), nil
	}
}
