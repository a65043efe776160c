package photon

import (
	"context"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// getValidityProofV2 returns the proof inputs per account and per address,
// each with its merkle context; accounts still in a V2 output queue are
// proven by index (no root). As Photon, the other accounts and the
// addresses are proven through the prover service; compressedProof is
// null when nothing needs proving, or when the server has no prover (the
// V2 schema admits it; docs/compat.md).
func getValidityProofV2(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		in, err := decodeValidity(c, true)
		if err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		var accounts []*accountProof
		if len(in.hashes) > 0 {
			if accounts, err = readAccountProofs(ctx, d, in.hashes, true); err != nil {
				return nil, err
			}
			for _, a := range accounts {
				if a == nil || a.leaf.Spent {
					return nil, validationError("Not all hashes exist. (Might be spent)")
				}
				if a.byIndex && !a.leaf.InOutputQueue {
					// Not in a queue and not a leaf: nullified in the tree.
					return nil, validationError("Not all hashes exist. (Might be spent)")
				}
			}
		}
		var addresses []addressProof
		if len(in.refs) > 0 {
			if addresses, err = readAddressProofs(ctx, d, in.refs); err != nil {
				return nil, err
			}
		}
		if err := checkHeights(accounts, addresses); err != nil {
			return nil, err
		}
		var proved []*accountProof
		for _, a := range accounts {
			if !a.byIndex {
				proved = append(proved, a)
			}
		}
		b := openContext(make([]byte, 0, 1024), slot)
		b = append(b, `{"compressedProof":`...)
		if d.Prover != nil && (len(proved) > 0 || len(addresses) > 0) {
			proof, err := prove(ctx, d, proved, addresses)
			if err != nil {
				return nil, err
			}
			b = appendProof(b, proof)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, `,"accounts":[`...)
		for i, a := range accounts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"hash":`...)
			b = appendKey(b, a.hash)
			if a.byIndex {
				b = append(b, `,"root":"","rootIndex":{"rootIndex":0,"proveByIndex":true}`...)
			} else {
				b = append(b, `,"root":`...)
				b = appendKey(b, a.proof.Root)
				b = append(b, `,"rootIndex":{"rootIndex":`...)
				b = appendU64(b, rootIndex(a.proof.RootSeq, a.tree))
				b = append(b, `,"proveByIndex":false}`...)
			}
			b = append(b, `,"leafIndex":`...)
			b = appendU64(b, a.leaf.LeafIndex)
			b = append(b, `,"merkleContext":`...)
			b = appendMerkleContext(b, a.leaf.TreeType, a.leaf.Tree, a.leaf.Queue)
			b = append(b, '}')
		}
		b = append(b, `],"addresses":[`...)
		for i := range addresses {
			a := &addresses[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"address":`...)
			b = appendKey(b, a.ref.Address)
			b = append(b, `,"root":`...)
			b = appendKey(b, a.proof.Root)
			b = append(b, `,"rootIndex":`...)
			b = appendU64(b, rootIndex(a.proof.RootSeq, a.tree))
			b = append(b, `,"merkleContext":`...)
			b = appendMerkleContext(b, a.tree.Type, a.tree.Tree, a.tree.Queue)
			b = append(b, '}')
		}
		return closeContext(append(b, "]}"...)), nil
	}
}
