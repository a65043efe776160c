// Package b58 encodes Solana keys and signatures in base58, allocation
// free and several times faster than a general encoder: every read
// answer carries hundreds of keys, and encoding them was most of the CPU
// a page of balances or holders cost.
package b58

import (
	"encoding/binary"
	"math/big"
	"slices"

	"github.com/mr-tron/base58"
)

const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// chars is the alphabet padded to 64, so a digit masked with 63 (or
// known below 58) indexes it without a bounds check.
var chars = [64]byte([]byte(alphabet + "??????"))

// radix is 58^5, the largest power of 58 below 2^32: the number is
// converted to base 58^5 first, then each of those digits to five
// characters.
const radix = 58 * 58 * 58 * 58 * 58

// maxLimbs bounds the inputs the fast path takes: 64 bytes (16 32-bit
// limbs), a signature. maxGroups is the base-58^5 digits 2^512 needs.
const (
	maxLimbs  = 16
	maxGroups = 18
)

// conv holds, for each limb weight 2^(32k), its base-58^5 digits (least
// significant first), and for each limb count the digits its largest
// value needs. Read only after it is built.
type conv struct {
	pow    [maxLimbs][maxGroups]uint32
	groups [maxLimbs + 1]int
}

// tables is built once; nothing writes it afterwards.
var tables = buildTables()

func buildTables() *conv {
	c := &conv{}
	r := big.NewInt(radix)
	for k := 0; k < maxLimbs; k++ {
		v := new(big.Int).Lsh(big.NewInt(1), uint(32*k))
		for j := 0; v.Sign() > 0; j++ {
			m := new(big.Int)
			v.DivMod(v, r, m)
			c.pow[k][j] = uint32(m.Uint64())
		}
	}
	for n := 1; n <= maxLimbs; n++ {
		max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(32*n)), big.NewInt(1))
		for max.Sign() > 0 {
			max.Div(max, r)
			c.groups[n]++
		}
	}
	return c
}

// limbsPerPass is how many limbs' products are added to the digits
// before carries are propagated: each product is below 2^32 * 58^5, and
// TestPassesCannotOverflow checks that a digit below 58^5 plus the
// products of any pass of 8 limbs stays below 2^64. A key (8 limbs) takes
// one pass, a signature two.
const limbsPerPass = 8

// Append appends the base58 encoding of raw to dst, as base58.Encode
// would return it. Inputs of up to 64 bytes whose length is a multiple of
// 4 (keys, hashes, signatures) take the fast path: each 32-bit limb is
// multiplied into base-58^5 digits by a precomputed table, independent
// multiply-adds where long division was a chain of dependent divisions.
func Append(dst, raw []byte) []byte {
	if len(raw) == 32 {
		return appendKey(dst, raw)
	}
	if len(raw)%4 != 0 || len(raw) > 4*maxLimbs {
		return append(dst, base58.Encode(raw)...)
	}
	n := len(raw) / 4
	var accs [maxGroups]uint64
	acc := accs[:tables.groups[n]]
	for k0 := 0; k0 < n; k0 += limbsPerPass {
		for k := k0; k < k0+limbsPerPass && k < n; k++ {
			limb := uint64(binary.BigEndian.Uint32(raw[4*(n-1-k):]))
			row := tables.pow[k][:len(acc)]
			for j, p := range row {
				acc[j] += limb * uint64(p)
			}
		}
		for j := 0; j+1 < len(acc); j++ {
			acc[j+1] += acc[j] / radix
			acc[j] %= radix
		}
	}
	return appendDigits(dst, raw, acc)
}

// appendKey is Append for 32 bytes, the size of every key and hash: the
// same conversion with the table's eight rows written out as constants
// (limb k from the least significant, times the base-58^5 digits of
// 2^(32k); zero digits left out), so the nine digits stay in registers.
// A key is most of the characters of an answer.
func appendKey(dst, raw []byte) []byte {
	_ = raw[31]
	l0 := uint64(binary.BigEndian.Uint32(raw[28:]))
	l1 := uint64(binary.BigEndian.Uint32(raw[24:]))
	l2 := uint64(binary.BigEndian.Uint32(raw[20:]))
	l3 := uint64(binary.BigEndian.Uint32(raw[16:]))
	l4 := uint64(binary.BigEndian.Uint32(raw[12:]))
	l5 := uint64(binary.BigEndian.Uint32(raw[8:]))
	l6 := uint64(binary.BigEndian.Uint32(raw[4:]))
	l7 := uint64(binary.BigEndian.Uint32(raw[0:]))
	a0 := l0 + l1*356826688 + l2*410450016 + l3*357132832 + l4*21339008 + l5*289024608 + l6*153715680 + l7*379377856
	a1 := l1*6 + l2*537767569 + l3*389432875 + l4*551597588 + l5*247894721 + l6*413102373 + l7*141436834
	a2 := l2*42 + l3*127692781 + l4*385795061 + l5*294005210 + l6*209184527 + l7*214625350
	a3 := l3*280 + l4*324463681 + l5*3737691 + l6*91512303 + l7*605448490
	a4 := l4*1833 + l5*486083817 + l6*118408823 + l7*300156666
	a5 := l5*11997 + l6*646269101 + l7*437087610
	a6 := l6*78508 + l7*77223048
	a7 := l7 * 513735
	a1 += a0 / radix
	a2 += a1 / radix
	a3 += a2 / radix
	a4 += a3 / radix
	a5 += a4 / radix
	a6 += a5 / radix
	a7 += a6 / radix
	acc := [9]uint64{a0 % radix, a1 % radix, a2 % radix, a3 % radix, a4 % radix, a5 % radix, a6 % radix, a7 % radix, a7 / radix}
	return appendDigits(dst, raw, acc[:])
}

// appendDigits appends raw's encoding given its base-58^5 digits, least
// significant first: five characters per digit, most significant first;
// the number's own leading zero characters ('1') are dropped, one '1' per
// leading zero byte of raw is written instead.
func appendDigits(dst, raw []byte, acc []uint64) []byte {
	zeros := 0
	for zeros < len(raw) && raw[zeros] == 0 {
		zeros++
	}
	var buf [5 * maxGroups]byte
	text := buf[:5*len(acc)]
	for i, d := len(acc)-1, 0; i >= 0; i, d = i-1, d+5 {
		v := uint32(acc[i])
		c := (*[5]byte)(text[d:])
		c[4] = chars[v%58]
		v /= 58
		c[3] = chars[v%58]
		v /= 58
		c[2] = chars[v%58]
		v /= 58
		c[1] = chars[v%58]
		c[0] = chars[(v/58)&63]
	}
	skip := 0
	for skip < len(text) && text[skip] == '1' {
		skip++
	}
	text = text[skip:]
	at := len(dst)
	dst = slices.Grow(dst, zeros+len(text))[:at+zeros+len(text)]
	out := dst[at:]
	for i := range zeros {
		out[i] = '1'
	}
	copy(out[zeros:], text)
	return dst
}

// Encode returns the base58 encoding of raw.
func Encode(raw []byte) string {
	var buf [90]byte
	return string(Append(buf[:0], raw))
}
