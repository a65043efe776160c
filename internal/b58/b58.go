// Package b58 encodes Solana keys and signatures in base58, allocation
// free and several times faster than a general encoder: every read
// answer carries hundreds of keys, and encoding them was most of the CPU
// a page of balances or holders cost.
package b58

import "github.com/mr-tron/base58"

const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// radix is 58^5, the largest power of 58 below 2^32: the input is divided
// by it, limb by limb, in 64-bit arithmetic, giving five digits at a time.
const radix = 58 * 58 * 58 * 58 * 58

// maxLimbs bounds the inputs the fast path takes: 64 bytes, a signature.
const maxLimbs = 16

// Append appends the base58 encoding of raw to dst, as base58.Encode
// would return it. Inputs of up to 64 bytes whose length is a multiple of
// 4 (keys, hashes, signatures) take the fast path.
func Append(dst, raw []byte) []byte {
	if len(raw)%4 != 0 || len(raw) > 4*maxLimbs {
		return append(dst, base58.Encode(raw)...)
	}
	zeros := 0
	for zeros < len(raw) && raw[zeros] == 0 {
		zeros++
	}
	// The number as big-endian 32-bit limbs.
	var limbs [maxLimbs]uint64
	n := len(raw) / 4
	for i := 0; i < n; i++ {
		limbs[i] = uint64(raw[4*i])<<24 | uint64(raw[4*i+1])<<16 | uint64(raw[4*i+2])<<8 | uint64(raw[4*i+3])
	}
	// Base-58^5 digits, least significant first. 58^5 > 2^29, so 64
	// bytes need at most 18 of them (58^90 > 2^512).
	var groups [2 * maxLimbs]uint32
	g := 0
	first := 0
	for first < n {
		var rem uint64
		for i := first; i < n; i++ {
			cur := rem<<32 | limbs[i]
			limbs[i] = cur / radix
			rem = cur % radix
		}
		groups[g] = uint32(rem)
		g++
		for first < n && limbs[first] == 0 {
			first++
		}
	}
	// Five characters per group, most significant first; the number's
	// own leading zero digits are dropped, one '1' per leading zero byte
	// is written instead.
	var digits [5 * 2 * maxLimbs]byte
	d := 0
	for i := g - 1; i >= 0; i-- {
		v := groups[i]
		for j := 4; j >= 0; j-- {
			digits[d+j] = byte(v % 58)
			v /= 58
		}
		d += 5
	}
	skip := 0
	for skip < d && digits[skip] == 0 {
		skip++
	}
	for i := 0; i < zeros; i++ {
		dst = append(dst, '1')
	}
	for _, v := range digits[skip:d] {
		dst = append(dst, alphabet[v])
	}
	return dst
}

// Encode returns the base58 encoding of raw.
func Encode(raw []byte) string {
	var buf [90]byte
	return string(Append(buf[:0], raw))
}
