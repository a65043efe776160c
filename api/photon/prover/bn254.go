package prover

import (
	"errors"
	"math/big"
)

// q is BN254's base field modulus.
var q, _ = new(big.Int).SetString("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 16)

// halfQ is (q-1)/2: a coordinate above it is the "negative" root, whose
// compressed form carries the flag bit.
var halfQ = new(big.Int).Rsh(new(big.Int).Sub(q, big.NewInt(1)), 1)

// flagNegative marks, in the first big-endian byte of a compressed point,
// that y is the larger of its two roots (arkworks' YIsNegative flag, which
// Solana's alt_bn128 compression keeps).
const flagNegative = 0x80

func fieldElement(b []byte) (*big.Int, error) {
	v := new(big.Int).SetBytes(b)
	if v.Cmp(q) >= 0 {
		return nil, errors.New("coordinate not below the field modulus")
	}
	return v, nil
}

func put32(dst []byte, v *big.Int) { v.FillBytes(dst[:32]) }

// onG1 reports whether (x, y) satisfies y^2 = x^3 + 3.
func onG1(x, y *big.Int) bool {
	l := new(big.Int).Mul(y, y)
	l.Mod(l, q)
	r := new(big.Int).Mul(x, x)
	r.Mul(r, x)
	r.Add(r, big.NewInt(3))
	r.Mod(r, q)
	return l.Cmp(r) == 0
}

// negateG1 is -P for a big-endian G1 point x||y: (x, q-y). The point at
// infinity (all zero) is its own negation.
func negateG1(p [64]byte) ([64]byte, error) {
	if p == [64]byte{} {
		return p, nil
	}
	x, err := fieldElement(p[:32])
	if err != nil {
		return p, err
	}
	y, err := fieldElement(p[32:])
	if err != nil {
		return p, err
	}
	if !onG1(x, y) {
		return p, errors.New("not a point of G1")
	}
	var out [64]byte
	put32(out[:32], x)
	if y.Sign() != 0 {
		y.Sub(q, y)
	}
	put32(out[32:], y)
	return out, nil
}

// compressG1 is a big-endian G1 point's compressed form: x with the flag
// set when y > (q-1)/2; the point at infinity compresses to zeros.
func compressG1(p [64]byte) ([32]byte, error) {
	var out [32]byte
	if p == [64]byte{} {
		return out, nil
	}
	x, err := fieldElement(p[:32])
	if err != nil {
		return out, err
	}
	y, err := fieldElement(p[32:])
	if err != nil {
		return out, err
	}
	if !onG1(x, y) {
		return out, errors.New("not a point of G1")
	}
	copy(out[:], p[:32])
	if y.Cmp(halfQ) > 0 {
		out[0] |= flagNegative
	}
	return out, nil
}

// compressG2 is a big-endian G2 point's compressed form. The layout is
// Solana's alt_bn128 one, x.c1 || x.c0 || y.c1 || y.c0; the compressed
// point is x with the flag set when y > -y, comparing c1 first, then c0
// (arkworks' order of a quadratic extension element).
func compressG2(p [128]byte) ([64]byte, error) {
	var out [64]byte
	if p == [128]byte{} {
		return out, nil
	}
	var c [4]*big.Int
	for i := range c {
		v, err := fieldElement(p[32*i : 32*i+32])
		if err != nil {
			return out, err
		}
		c[i] = v
	}
	y1, y0 := c[2], c[3]
	neg := func(v *big.Int) *big.Int {
		if v.Sign() == 0 {
			return new(big.Int)
		}
		return new(big.Int).Sub(q, v)
	}
	greater := y1.Cmp(neg(y1)) > 0
	if y1.Cmp(neg(y1)) == 0 {
		greater = y0.Cmp(neg(y0)) > 0
	}
	copy(out[:], p[:64])
	if greater {
		out[0] |= flagNegative
	}
	return out, nil
}
