package photon

import (
	"bytes"
	"context"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// What the proof methods share: reading account and address proofs with
// Photon's rules, and writing them in Photon's shapes.

// maxNewAddresses is Photon's limit on addresses per proof request.
const maxNewAddresses = 50

// v1AddressTree is the address tree Photon's V1 methods prove against.
var v1AddressTree = compressed.Key(mustKey("amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"))

func mustKey(s string) [32]byte {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		panic("photon: bad constant key " + s)
	}
	return [32]byte(b)
}

// accountProof is the inclusion proof of one account.
type accountProof struct {
	hash    compressed.Key
	leaf    compressed.AccountLeaf
	tree    compressed.Tree
	proof   compressed.MerkleProof
	byIndex bool // the account waits in a V2 output queue: prove by index
}

// readAccountProofs proves hashes, in request order. Without byIndex every
// hash must be a leaf of its tree now (Photon's V1 rule: an account the
// forester nullified has no proof); a nil entry marks one that is not. With
// byIndex an account whose leaf is not (yet) in the tree is proven by its
// index instead, and only unknown hashes are nil.
func readAccountProofs(ctx context.Context, d Deps, hashes []compressed.Key, byIndex bool) ([]*accountProof, error) {
	leaves, err := compressed.AccountLeaves(ctx, d.Store, hashes)
	if err != nil {
		return nil, err
	}
	var treeKeys []compressed.Key
	for _, l := range leaves {
		treeKeys = append(treeKeys, l.Tree)
	}
	trees, err := compressed.Trees(ctx, d.Store, treeKeys)
	if err != nil {
		return nil, err
	}
	out := make([]*accountProof, len(hashes))
	var refs []compressed.LeafRef
	var at []int
	for i, h := range hashes {
		l, ok := leaves[h]
		if !ok {
			continue
		}
		t, ok := trees[l.Tree]
		if !ok || t.Height == 0 || t.Height > light.MaxTreeHeight || l.LeafIndex >= 1<<t.Height {
			continue
		}
		out[i] = &accountProof{hash: h, leaf: l, tree: t}
		refs = append(refs, compressed.LeafRef{Tree: l.Tree, Height: t.Height, LeafIndex: l.LeafIndex})
		at = append(at, i)
	}
	proofs, err := compressed.LeafProofs(ctx, d.Store, refs)
	if err != nil {
		return nil, err
	}
	for j, p := range proofs {
		a := out[at[j]]
		a.proof = p
		if p.Leaf != a.hash {
			if !byIndex {
				out[at[j]] = nil
				continue
			}
			a.byIndex = true
		}
	}
	return out, nil
}

// allFound is Photon's V1 check that every hash has a leaf.
func allFound(ps []*accountProof) error {
	n := 0
	for _, p := range ps {
		if p != nil {
			n++
		}
	}
	if n != len(ps) {
		return recordNotFound("Leaf nodes not found for hashes. Got " + itoa(n) + " hashes. Expected " + itoa(len(ps)) + ".")
	}
	return nil
}

// checkHashCount is Photon's limit on hashes per proof request.
func checkHashCount(n int) error {
	if n > pageLimit {
		return validationError("Too many hashes requested " + itoa(n) + ". Maximum allowed: 1000")
	}
	return nil
}

// addressProof is the non-inclusion proof of one new address.
type addressProof struct {
	ref   compressed.AddressRef
	tree  compressed.Tree
	low   compressed.AddressElement
	proof compressed.MerkleProof
}

// readAddressProofs proves refs absent from their trees, in request order.
func readAddressProofs(ctx context.Context, d Deps, refs []compressed.AddressRef) ([]addressProof, error) {
	if len(refs) == 0 {
		return nil, validationError("No addresses provided")
	}
	if len(refs) > maxNewAddresses {
		return nil, validationError("Too many addresses requested " + itoa(len(refs)) + ". Maximum allowed: 50")
	}
	keys := make([]compressed.Key, len(refs))
	for i, r := range refs {
		keys[i] = r.Tree
	}
	trees, err := compressed.Trees(ctx, d.Store, keys)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		t, ok := trees[r.Tree]
		typ := light.TreeType(t.Type)
		if !ok || (typ != light.TreeAddressV1 && typ != light.TreeAddressV2) || t.Height == 0 || t.Height > light.MaxTreeHeight {
			return nil, recordNotFound("Address tree not found: " + base58.Encode(r.Tree[:]))
		}
	}
	lows, err := compressed.LowElements(ctx, d.Store, refs)
	if err != nil {
		return nil, err
	}
	out := make([]addressProof, len(refs))
	var leafRefs []compressed.LeafRef
	var at []int
	for i, r := range refs {
		t := trees[r.Tree]
		out[i] = addressProof{ref: r, tree: t}
		if lows[i] == nil {
			if out[i].low, out[i].proof, err = compressed.EmptyAddressProof(t); err != nil {
				return nil, err
			}
			continue
		}
		out[i].low = *lows[i]
		if lows[i].LeafIndex >= 1<<t.Height {
			return nil, jsonrpc.ServerError(internalErrorText)
		}
		leafRefs = append(leafRefs, compressed.LeafRef{Tree: r.Tree, Height: t.Height, LeafIndex: lows[i].LeafIndex})
		at = append(at, i)
	}
	proofs, err := compressed.LeafProofs(ctx, d.Store, leafRefs)
	if err != nil {
		return nil, err
	}
	for j, p := range proofs {
		out[at[j]].proof = p
	}
	return out, nil
}

// rootIndex is where the root sits in the tree's on-chain root history.
func rootIndex(seq uint64, t compressed.Tree) uint64 {
	if t.RootHistoryCapacity == 0 {
		return seq
	}
	return seq % t.RootHistoryCapacity
}

func appendKeys(b []byte, ks []compressed.Key) []byte {
	b = append(b, '[')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, k)
	}
	return append(b, ']')
}

// appendProofHead opens an account proof with the members both versions
// start with: proof, root, leafIndex, hash.
func appendProofHead(b []byte, p *accountProof) []byte {
	b = append(b, `{"proof":`...)
	b = appendKeys(b, p.proof.Proof)
	b = append(b, `,"root":`...)
	b = appendKey(b, p.proof.Root)
	b = append(b, `,"leafIndex":`...)
	b = appendU64(b, p.leaf.LeafIndex)
	b = append(b, `,"hash":`...)
	b = appendKey(b, p.hash)
	return b
}

// appendAccountProof writes Photon's MerkleProofWithContext (V1).
func appendAccountProof(b []byte, p *accountProof) []byte {
	b = appendProofHead(b, p)
	b = append(b, `,"merkleTree":`...)
	b = appendKey(b, p.leaf.Tree)
	b = append(b, `,"rootSeq":`...)
	b = appendU64(b, p.proof.RootSeq)
	return append(b, '}')
}

// appendMerkleContext writes a V2 merkle context without CPI context.
func appendMerkleContext(b []byte, treeType uint8, tree, queue compressed.Key) []byte {
	b = append(b, `{"treeType":`...)
	b = appendU64(b, uint64(treeType))
	b = append(b, `,"tree":`...)
	b = appendKey(b, tree)
	b = append(b, `,"queue":`...)
	b = appendKey(b, queue)
	return append(b, `,"cpiContext":null,"nextTreeContext":null}`...)
}

// appendAccountProofV2 writes the V2 proof shape, with proveByIndex and the
// tree context.
func appendAccountProofV2(b []byte, p *accountProof) []byte {
	b = appendProofHead(b, p)
	b = append(b, `,"rootSeq":`...)
	b = appendU64(b, p.proof.RootSeq)
	b = append(b, `,"proveByIndex":`...)
	b = appendBool(b, p.byIndex)
	b = append(b, `,"treeContext":`...)
	b = appendMerkleContext(b, p.leaf.TreeType, p.leaf.Tree, p.leaf.Queue)
	return append(b, '}')
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendAddressProof writes Photon's MerkleContextWithNewAddressProof.
func appendAddressProof(b []byte, p *addressProof) []byte {
	b = append(b, `{"root":`...)
	b = appendKey(b, p.proof.Root)
	b = append(b, `,"address":`...)
	b = appendKey(b, p.ref.Address)
	b = append(b, `,"lowerRangeAddress":`...)
	b = appendKey(b, p.low.Value)
	b = append(b, `,"higherRangeAddress":`...)
	b = appendKey(b, p.low.NextValue)
	b = append(b, `,"nextIndex":`...)
	b = appendU64(b, p.low.NextIndex)
	b = append(b, `,"proof":`...)
	b = appendKeys(b, p.proof.Proof)
	b = append(b, `,"merkleTree":`...)
	b = appendKey(b, p.ref.Tree)
	b = append(b, `,"rootSeq":`...)
	b = appendU64(b, p.proof.RootSeq)
	b = append(b, `,"lowElementLeafIndex":`...)
	b = appendU64(b, p.low.LeafIndex)
	return append(b, '}')
}

// addressWithTree is Photon's AddressWithTree param.
type addressWithTree struct {
	Address *Pubkey `json:"address"`
	Tree    *Pubkey `json:"tree"`
}

// AddressTreeList is a list of {address, tree} params.
type AddressTreeList []compressed.AddressRef

// UnmarshalJSON decodes each element with serde's texts for unknown and
// missing fields.
func (l *AddressTreeList) UnmarshalJSON(b []byte) error {
	elems, err := decodeArray(b)
	if err != nil {
		return err
	}
	out := make([]compressed.AddressRef, 0, len(elems))
	for _, e := range elems {
		var a addressWithTree
		if t := bytes.TrimSpace(e); len(t) == 0 || t[0] != '{' {
			return invalidType(e, "struct AddressWithTree")
		}
		if err := jsonrpc.DecodeParams(e, &a, []string{"address", "tree"}); err != nil {
			return err
		}
		if a.Address == nil {
			return jsonrpc.InvalidParams("missing field `address`")
		}
		if a.Tree == nil {
			return jsonrpc.InvalidParams("missing field `tree`")
		}
		out = append(out, compressed.AddressRef{Address: compressed.Key(*a.Address), Tree: compressed.Key(*a.Tree)})
	}
	*l = out
	return nil
}

// decodeArray splits a JSON array into its elements.
func decodeArray(b []byte) ([]json.RawMessage, error) {
	var elems []json.RawMessage
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &elems) != nil {
		return nil, invalidType(b, "a sequence")
	}
	return elems, nil
}
