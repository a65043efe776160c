package photon

import (
	"context"
	"errors"
	"strconv"

	"github.com/dasch-labs/dasch/api/photon/prover"
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

// getValidityProof proves accounts (inclusion) and new addresses
// (non-inclusion) through the prover service, as Photon does, and returns
// the compressed proof with its inputs. Without a prover it answers an
// error naming the flag: a null compressedProof breaks V1 clients
// (docs/compat.md).
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
		if d.Prover == nil {
			return nil, errNoProver
		}
		proof, err := prove(ctx, d, accounts, addresses)
		if err != nil {
			return nil, err
		}
		b := openContext(make([]byte, 0, 1024), slot)
		b = append(b, `{"compressedProof":`...)
		b = appendProof(b, proof)
		b = append(b, `,"roots":[`...)
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

// errNoProver answers a validity proof on a server started without
// --prover: a V1 client cannot use a proof without its compressedProof.
var errNoProver = jsonrpc.ServerError("Validity proofs need a prover service: this server was started without one (dasch serve --prover URL)")

// prove asks the prover for the proof of accounts and addresses.
func prove(ctx context.Context, d Deps, accounts []*accountProof, addresses []addressProof) (prover.Proof, error) {
	var in prover.Inputs
	for _, a := range accounts {
		in.Inclusions = append(in.Inclusions, prover.Inclusion{Root: a.proof.Root, Leaf: a.hash,
			PathIndex: uint32(a.leaf.LeafIndex), PathElements: keys32(a.proof.Proof)})
	}
	for i := range addresses {
		a := &addresses[i]
		in.NonInclusions = append(in.NonInclusions, prover.NonInclusion{Root: a.proof.Root, Value: a.ref.Address,
			PathIndex: uint32(a.low.LeafIndex), PathElements: keys32(a.proof.Proof),
			LowerRange: a.low.Value, HigherRange: a.low.NextValue, NextIndex: uint32(a.low.NextIndex)})
	}
	p, err := d.Prover.Prove(ctx, in)
	switch {
	case err == nil:
		return p, nil
	case ctx.Err() != nil:
		return p, ctx.Err()
	case errors.Is(err, prover.ErrUnavailable):
		d.Logger.Error("prover failed", "err", err)
		return p, jsonrpc.ServerError("Prover unavailable")
	}
	d.Logger.Error("prover answer refused", "err", err)
	return p, jsonrpc.ServerError("Prover answered something that is not a proof")
}

func keys32(ks []compressed.Key) [][32]byte {
	out := make([][32]byte, len(ks))
	for i, k := range ks {
		out[i] = k
	}
	return out
}

// appendProof writes a compressed proof as Photon does: a, b and c as
// arrays of byte values.
func appendProof(b []byte, p prover.Proof) []byte {
	bytesJSON := func(b []byte, v []byte) []byte {
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, uint64(x), 10)
		}
		return append(b, ']')
	}
	b = append(b, `{"a":`...)
	b = bytesJSON(b, p.A[:])
	b = append(b, `,"b":`...)
	b = bytesJSON(b, p.B[:])
	b = append(b, `,"c":`...)
	b = bytesJSON(b, p.C[:])
	return append(b, '}')
}
