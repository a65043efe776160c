package light

import "encoding/binary"

// The hashes of Light's Merkle trees: a node is Poseidon(left, right), an
// empty subtree hashes to the zero hash of its level, and a V1 address
// tree leaf is Poseidon(value, next index, next value). The constants are
// prepared once and never change.
var (
	hash2 = newPoseidon(&poseidonT3)
	hash3 = newPoseidon(&poseidonT4)
)

// MaxTreeHeight is the tallest tree the zero hashes cover (V2 address trees
// are 40 high).
const MaxTreeHeight = 40

// zeroHashes[l] is the root of an empty subtree of height l.
var zeroHashes = func() [MaxTreeHeight + 1]Hash {
	var z [MaxTreeHeight + 1]Hash
	for l := 1; l <= MaxTreeHeight; l++ {
		// Zero hashes are field elements, so hashing them cannot fail.
		z[l], _ = hash2.hash(z[l-1], z[l-1])
	}
	return z
}()

// ZeroHash is the hash of an empty subtree of the given height (level 0 is
// an empty leaf, all zero bytes). It panics above MaxTreeHeight, a bound
// callers check against the tree's height first.
func ZeroHash(level int) Hash { return zeroHashes[level] }

// NodeHash is the parent of two Merkle tree nodes. It fails only when a
// child is not a BN254 field element, which a tree built from chain data
// never holds.
func NodeHash(left, right Hash) (Hash, error) { return hash2.hash(left, right) }

// HighestAddressPlusOne is the value of the last element of an indexed
// address tree (2^248 - 1): every address lies below it.
var HighestAddressPlusOne = func() [32]byte {
	var v [32]byte
	for i := 1; i < 32; i++ {
		v[i] = 0xff
	}
	return v
}()

// AddressLeafHash is the leaf hash of an indexed address tree element:
// Poseidon(value, next index, next value) in V1 trees, Poseidon(value,
// next value) in V2 trees, which dropped the index from the circuit.
func AddressLeafHash(e IndexedElement, t TreeType) (Hash, error) {
	if t == TreeAddressV2 {
		return hash2.hash(Hash(e.Value), Hash(e.NextValue))
	}
	var next Hash
	binary.BigEndian.PutUint64(next[24:], e.NextIndex)
	return hash3.hash(Hash(e.Value), next, Hash(e.NextValue))
}

// InitialAddressElements are the two elements an empty indexed address
// tree holds: 0 pointing at the highest value, and the highest value.
// In a V1 tree they are leaves 0 and 1; a V2 tree holds only the first,
// pointing at index 0.
func InitialAddressElements(t TreeType) []IndexedElement {
	if t == TreeAddressV2 {
		return []IndexedElement{{NextValue: HighestAddressPlusOne}}
	}
	return []IndexedElement{
		{NextIndex: 1, NextValue: HighestAddressPlusOne},
		{Value: HighestAddressPlusOne, Index: 1},
	}
}
