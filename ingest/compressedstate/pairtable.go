package compressedstate

import (
	"encoding/binary"
	"math/rand/v2"
)

// pairTable maps pair digests to balances for the state step's copy of
// token_balances: open addressing with linear probing over a power-of-two
// array. The digest is uniform (a SipHash) but unkeyed, so anyone may
// compute it: owners chosen so that many pairs' digests share their first
// bits would pile into one run of slots and make every probe walk it. The
// slot is therefore taken from both halves of the digest mixed with a
// random seed of the table (home), at a small cost a probe against taking
// the digest's first bits (BenchmarkPairTable, docs/performance.md). At
// 18M pairs a lookup or update is a cache miss however it is done; a Go
// map pays more than one (an earlier microbenchmark, docs/performance.md).
type pairTable struct {
	slots []pairSlot
	shift uint // 64 - log2(len(slots))
	seed  uint64
	n     int
	// The all-zero digest marks empty slots, so it is kept apart.
	hasZero bool
	zero    uint64
}

type pairSlot struct {
	key pairKey
	bal uint64
}

// minPairSlots keeps a small table's array small but not tiny.
const minPairSlots = 1 << 10

// newPairTable returns a table sized for n pairs at most 3/4 full.
func newPairTable(n int) *pairTable {
	size := minPairSlots
	for size/4*3 < n {
		size *= 2
	}
	return newPairTableSlots(size)
}

func newPairTableSlots(size int) *pairTable {
	shift := uint(64)
	for s := size; s > 1; s >>= 1 {
		shift--
	}
	return &pairTable{slots: make([]pairSlot, size), shift: shift, seed: rand.Uint64()}
}

// Len is the number of pairs held.
func (t *pairTable) Len() int { return t.n }

// home is k's first slot: the top bits of the product of an odd constant
// and both halves of k xored with the seed. The top bits of a product
// depend on every bit of its factor, so keys land apart in a way that
// cannot be aimed at without the seed, unless their halves xor to the
// same 64 bits, which a chooser of owners cannot make many digests do.
func (t *pairTable) home(k *pairKey) uint64 {
	x := binary.LittleEndian.Uint64(k[:8]) ^ binary.LittleEndian.Uint64(k[8:]) ^ t.seed
	return x * homeFactor >> t.shift
}

const homeFactor = 0x9e3779b97f4a7c15

// Get returns the balance of k, if held.
func (t *pairTable) Get(k *pairKey) (uint64, bool) {
	if *k == (pairKey{}) {
		return t.zero, t.hasZero
	}
	mask := uint64(len(t.slots) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == *k {
			return s.bal, true
		}
		if s.key == (pairKey{}) {
			return 0, false
		}
	}
}

// Put sets the balance of k.
func (t *pairTable) Put(k *pairKey, bal uint64) {
	b, _ := t.slot(k)
	*b = bal
}

// Add adds delta to the balance of k (wrapping, as toUInt64 of the sum
// keeps its low 64 bits) and returns the balance it had; a k not held
// is set to delta. One probe where a Get and a Put take two, each a
// cache miss in a large table.
func (t *pairTable) Add(k *pairKey, delta uint64) (old uint64, had bool) {
	b, had := t.slot(k)
	old = *b
	*b += delta
	return old, had
}

// slot returns the balance of k to write, and whether k was held; a k
// not held is added with balance 0, after growing the array if it would
// be more than 3/4 full.
func (t *pairTable) slot(k *pairKey) (*uint64, bool) {
	if *k == (pairKey{}) {
		had := t.hasZero
		if !had {
			t.n++
			t.hasZero, t.zero = true, 0
		}
		return &t.zero, had
	}
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	return t.find(k)
}

// find is slot in an array that has room.
func (t *pairTable) find(k *pairKey) (*uint64, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == *k {
			return &s.bal, true
		}
		if s.key == (pairKey{}) {
			s.key, s.bal = *k, 0
			t.n++
			return &s.bal, false
		}
	}
}

// grow doubles the array. The seed stays: a key's new home is its old
// one doubled, plus one bit, so the old array read in order fills the
// new one from start to end instead of missing the cache on every pair,
// several times faster than under a new seed (BenchmarkPairTableGrow,
// docs/performance.md). Growing to 18M pairs rehashes about 25M in all
// (12.6M, 6.3M, … at the doublings), more than the 18M updates of the
// load itself.
func (t *pairTable) grow() {
	old := t.slots
	next := newPairTableSlots(2 * len(old))
	next.seed = t.seed
	next.n, next.hasZero, next.zero = 0, t.hasZero, t.zero
	if t.hasZero {
		next.n = 1
	}
	for i := range old {
		if old[i].key != (pairKey{}) {
			b, _ := next.find(&old[i].key)
			*b = old[i].bal
		}
	}
	*t = *next
}
