package photon

import (
	"context"

	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// validityParams is Photon's GetValidityProofRequest; V2 has no
// newAddresses.
type validityParams struct {
	Hashes                *HashList        `json:"hashes"`
	NewAddresses          *PubkeyList      `json:"newAddresses"`
	NewAddressesWithTrees *AddressTreeList `json:"newAddressesWithTrees"`
}

// validityInputs are the decoded and checked params of either version.
type validityInputs struct {
	hashes []compressed.Key
	refs   []compressed.AddressRef
}

func decodeValidity(c *jsonrpc.Call, v2 bool) (validityInputs, error) {
	var p validityParams
	fields := []string{"hashes", "newAddresses", "newAddressesWithTrees"}
	if v2 {
		fields = []string{"hashes", "newAddressesWithTrees"}
	}
	if err := jsonrpc.DecodeParams(c.Params, &p, fields); err != nil {
		return validityInputs{}, err
	}
	var in validityInputs
	if p.Hashes != nil {
		in.hashes = *p.Hashes
	}
	if p.NewAddressesWithTrees != nil {
		in.refs = *p.NewAddressesWithTrees
	}
	if p.NewAddresses != nil && len(*p.NewAddresses) > 0 {
		if len(in.refs) > 0 {
			return in, validationError("Cannot provide both newAddresses and newAddressesWithTree")
		}
		for _, a := range *p.NewAddresses {
			in.refs = append(in.refs, compressed.AddressRef{Address: a, Tree: v1AddressTree})
		}
	}
	if len(in.hashes) == 0 && len(in.refs) == 0 {
		return in, validationError("No hashes or new addresses provided for proof generation")
	}
	if err := checkHashCount(len(in.hashes)); err != nil {
		return in, err
	}
	return in, nil
}

// checkHeights applies Photon's rule that one proof covers trees of one
// height.
func checkHeights(accounts []*accountProof, addresses []addressProof) error {
	var state, addr uint32
	for i, a := range accounts {
		if a == nil || a.byIndex {
			continue
		}
		if i > 0 && state != 0 && a.tree.Height != state {
			return validationError("All state trees must have the same height")
		}
		state = a.tree.Height
	}
	for i, a := range addresses {
		if i > 0 && a.tree.Height != addr {
			return validationError("All address trees must have the same height")
		}
		addr = a.tree.Height
	}
	if state != 0 && addr != 0 && state != addr && light2Addr(addresses) {
		return validationError("State tree height must be equal to address tree height (height 26).")
	}
	return nil
}

// light2Addr is true when every address tree is a V1 tree: combined proofs
// with V1 address trees need equal heights.
func light2Addr(addresses []addressProof) bool {
	for _, a := range addresses {
		if a.tree.Type != 2 {
			return false
		}
	}
	return true
}

// getValidityProof returns the inputs of a validity proof for accounts
// (inclusion) and new addresses (non-inclusion). dasch runs no prover, so
// compressedProof is null; see docs/compat.md.
func getValidityProof(d Deps) jsonrpc.Handler {
	return func(ctx context.Context, c *jsonrpc.Call) (any, error) {
		in, err := decodeValidity(c, false)
		if err != nil {
			return nil, err
		}
		slot, err := d.contextSlot(ctx)
		if err != nil {
			return nil, err
		}
		var accounts []*accountProof
		if len(in.hashes) > 0 {
			if accounts, err = readAccountProofs(ctx, d, in.hashes, false); err != nil {
				return nil, err
			}
			if err := allFound(accounts); err != nil {
				return nil, err
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
		b := openContext(make([]byte, 0, 1024), slot)
		b = append(b, `{"compressedProof":null,"roots":[`...)
		list(&b, accounts, addresses, func(b []byte, a *accountProof) []byte { return appendKey(b, a.proof.Root) },
			func(b []byte, a *addressProof) []byte { return appendKey(b, a.proof.Root) })
		b = append(b, `],"rootIndices":[`...)
		list(&b, accounts, addresses, func(b []byte, a *accountProof) []byte { return appendU64(b, rootIndex(a.proof.RootSeq, a.tree)) },
			func(b []byte, a *addressProof) []byte { return appendU64(b, rootIndex(a.proof.RootSeq, a.tree)) })
		b = append(b, `],"leafIndices":[`...)
		list(&b, accounts, addresses, func(b []byte, a *accountProof) []byte { return appendU64(b, a.leaf.LeafIndex) },
			func(b []byte, a *addressProof) []byte { return appendU64(b, a.low.LeafIndex) })
		b = append(b, `],"leaves":[`...)
		list(&b, accounts, addresses, func(b []byte, a *accountProof) []byte { return appendKey(b, a.hash) },
			func(b []byte, a *addressProof) []byte { return appendKey(b, a.ref.Address) })
		b = append(b, `],"merkleTrees":[`...)
		list(&b, accounts, addresses, func(b []byte, a *accountProof) []byte { return appendKey(b, a.leaf.Tree) },
			func(b []byte, a *addressProof) []byte { return appendKey(b, a.ref.Tree) })
		return closeContext(append(b, "]}"...)), nil
	}
}

// list writes one JSON array's members: the accounts' values, then the
// addresses'.
func list(b *[]byte, accounts []*accountProof, addresses []addressProof,
	acc func([]byte, *accountProof) []byte, addr func([]byte, *addressProof) []byte) {
	n := 0
	for _, a := range accounts {
		if n > 0 {
			*b = append(*b, ',')
		}
		*b = acc(*b, a)
		n++
	}
	for i := range addresses {
		if n > 0 {
			*b = append(*b, ',')
		}
		*b = addr(*b, &addresses[i])
		n++
	}
}
