package light

import "testing"

// sparseRoot computes the root of a Poseidon Merkle tree of the given
// height from its non-empty leaves; empty leaves are zero, as in Light's
// state trees. It lets tests check parsed hashes, leaf indexes,
// nullifications and nullifiers against roots computed by Photon or the
// chain.
func sparseRoot(t *testing.T, p *poseidonParams, height int, leaves map[uint64]Hash) Hash {
	t.Helper()
	level := make(map[uint64]Hash, len(leaves))
	for k, v := range leaves {
		level[k] = v
	}
	var zero Hash
	for range height {
		next := make(map[uint64]Hash, len(level)/2+1)
		for idx := range level {
			parent := idx / 2
			if _, done := next[parent]; done {
				continue
			}
			left, ok := level[idx&^1]
			if !ok {
				left = zero
			}
			right, ok := level[idx|1]
			if !ok {
				right = zero
			}
			h, err := poseidonHash(p, left, right)
			if err != nil {
				t.Fatal(err)
			}
			next[parent] = h
		}
		z, err := poseidonHash(p, zero, zero)
		if err != nil {
			t.Fatal(err)
		}
		level, zero = next, z
	}
	if r, ok := level[0]; ok {
		return r
	}
	return zero
}
