package compressed

import (
	"encoding/binary"
	"math/bits"
)

// pairDigest is token_balances.pair computed in Go:
// sipHash128Reference(concat(owner, mint)), the reference SipHash-2-4
// with 128-bit output and a zero key, as ClickHouse computes it. The
// state step's in-memory path (stepOffered) keys its deltas and the
// balance copy with it, so both must agree bit for bit
// (TestPairDigestMatchesEngine).
func pairDigest(owner, mint []byte) pairKey {
	v0 := uint64(0x736f6d6570736575)
	v1 := uint64(0x646f72616e646f6d) ^ 0xee
	v2 := uint64(0x6c7967656e657261)
	v3 := uint64(0x7465646279746573)
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	block := func(m uint64) {
		v3 ^= m
		round()
		round()
		v0 ^= m
	}
	for _, half := range [2][]byte{owner[:32], mint[:32]} {
		for i := 0; i < 32; i += 8 {
			block(binary.LittleEndian.Uint64(half[i:]))
		}
	}
	// 64 bytes: no tail, only the length in the last block's top byte.
	block(64 << 56)
	v2 ^= 0xee
	round()
	round()
	round()
	round()
	var out pairKey
	binary.LittleEndian.PutUint64(out[:8], v0^v1^v2^v3)
	v1 ^= 0xdd
	round()
	round()
	round()
	round()
	binary.LittleEndian.PutUint64(out[8:], v0^v1^v2^v3)
	return out
}
