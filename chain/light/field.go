package light

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// fr is an element of the BN254 scalar field, the field Light's Poseidon
// hashes live in, as four little-endian 64-bit limbs in Montgomery form
// (x·2^256 mod q). Fixed limbs keep hashing allocation-free, which matters
// because every spent V2 account needs a nullifier.
type fr [4]uint64

// frModulus is q = 21888242871839275222246405745257275088548364400416034343698204186575808495617.
var frModulus = fr{0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029}

const (
	// frInv is -q⁻¹ mod 2^64, the Montgomery reduction factor.
	frInv = 0xc2e1f593efffffff
)

// frR2 is 2^512 mod q; multiplying by it moves a value into Montgomery form.
var frR2 = fr{0x1bb8e645ae216da7, 0x53fe3ab1e35c59e3, 0x8c49833d53bb8085, 0x0216d0b17f4e44a5}

var errNotInField = errors.New("value is not below the BN254 field modulus")

// frFromBE reads a 32-byte big-endian value; values at or above q are an
// error, as in Light's hasher, rather than being reduced.
func frFromBE(b *[32]byte) (fr, error) {
	var x fr
	for i := range 4 {
		x[3-i] = binary.BigEndian.Uint64(b[i*8 : i*8+8])
	}
	if !x.less(&frModulus) {
		return fr{}, errNotInField
	}
	return x.mul(&frR2), nil
}

// bytesBE leaves Montgomery form and writes the value big-endian.
func (x fr) bytesBE() [32]byte {
	one := fr{1}
	y := x.mul(&one)
	var out [32]byte
	for i := range 4 {
		binary.BigEndian.PutUint64(out[i*8:i*8+8], y[3-i])
	}
	return out
}

// less compares two plain (non-Montgomery) limb values.
func (x *fr) less(y *fr) bool {
	for i := 3; i >= 0; i-- {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return false
}

func (x fr) add(y *fr) fr {
	var z fr
	var c uint64
	z[0], c = bits.Add64(x[0], y[0], 0)
	z[1], c = bits.Add64(x[1], y[1], c)
	z[2], c = bits.Add64(x[2], y[2], c)
	z[3], _ = bits.Add64(x[3], y[3], c)
	// q < 2^254, so the sum fits in 256 bits and one subtraction suffices.
	if !z.less(&frModulus) {
		z = z.subModulus()
	}
	return z
}

func (x fr) subModulus() fr {
	var z fr
	var b uint64
	z[0], b = bits.Sub64(x[0], frModulus[0], 0)
	z[1], b = bits.Sub64(x[1], frModulus[1], b)
	z[2], b = bits.Sub64(x[2], frModulus[2], b)
	z[3], _ = bits.Sub64(x[3], frModulus[3], b)
	return z
}

// mul is the Montgomery product x·y·2^-256 mod q (coarsely integrated
// operand scanning).
func (x fr) mul(y *fr) fr {
	var t [6]uint64
	for i := range 4 {
		var c uint64
		for j := range 4 {
			hi, lo := bits.Mul64(x[j], y[i])
			var cc uint64
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			hi += cc
			t[j], c = lo, hi
		}
		var cc uint64
		t[4], cc = bits.Add64(t[4], c, 0)
		t[5] = cc

		m := t[0] * frInv
		hi, lo := bits.Mul64(m, frModulus[0])
		_, cc = bits.Add64(lo, t[0], 0)
		c = hi + cc
		for j := 1; j < 4; j++ {
			hi, lo = bits.Mul64(m, frModulus[j])
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			hi += cc
			t[j-1], c = lo, hi
		}
		t[3], cc = bits.Add64(t[4], c, 0)
		t[4] = t[5] + cc
	}
	z := fr{t[0], t[1], t[2], t[3]}
	if t[4] != 0 || !z.less(&frModulus) {
		z = z.subModulus()
	}
	return z
}

// pow5 is the Poseidon S-box x^5.
func (x fr) pow5() fr {
	x2 := x.mul(&x)
	x4 := x2.mul(&x2)
	return x4.mul(&x)
}
