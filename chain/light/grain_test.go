package light

import (
	"math/big"
)

// Poseidon parameters are derived, not invented: the reference generation
// script seeds a Grain LFSR with the field, S-box, sizes and round counts,
// then draws the round constants and a Cauchy MDS matrix from it. The tests
// rebuild them that way to check the table shipped in poseidon_t4.go and to
// get other widths for hashing checks.

var bn254R, _ = new(big.Int).SetString("21888242871839275222246405745257275088548364400416034343698204186575808495617", 10)

// partialRounds are the partial round counts circom uses per width.
var partialRounds = map[int]int{2: 56, 3: 57, 4: 56, 5: 60, 6: 60, 7: 63, 8: 64, 9: 63}

type grain struct{ bits []uint8 }

func newGrain(width, full, partial int) *grain {
	g := &grain{}
	push := func(v, n int) {
		for i := n - 1; i >= 0; i-- {
			g.bits = append(g.bits, uint8(v>>i&1))
		}
	}
	push(1, 2)    // prime field
	push(0, 4)    // x^alpha S-box
	push(254, 12) // field size in bits
	push(width, 12)
	push(full, 10)
	push(partial, 10)
	push(1<<30-1, 30)
	for range 160 {
		g.step()
	}
	return g
}

func (g *grain) step() uint8 {
	b := g.bits[62] ^ g.bits[51] ^ g.bits[38] ^ g.bits[23] ^ g.bits[13] ^ g.bits[0]
	g.bits = append(g.bits[1:], b)
	return b
}

// bit is the self-shrinking output: bit pairs (a, b) yield b when a is 1.
func (g *grain) bit() uint8 {
	for {
		a := g.step()
		b := g.step()
		if a == 1 {
			return b
		}
	}
}

func (g *grain) uint(n int) *big.Int {
	v := new(big.Int)
	for range n {
		v.Lsh(v, 1)
		v.Or(v, big.NewInt(int64(g.bit())))
	}
	return v
}

func limbsOf(v *big.Int) [4]uint64 {
	var out [4]uint64
	b := make([]byte, 32)
	v.FillBytes(b)
	for i := range 4 {
		for k := range 8 {
			out[3-i] = out[3-i]<<8 | uint64(b[i*8+k])
		}
	}
	return out
}

func grainParams(width int) *poseidonParams {
	full, partial := 8, partialRounds[width]
	g := newGrain(width, full, partial)
	p := &poseidonParams{width: width, fullRounds: full, partial: partial}
	for range (full + partial) * width {
		v := g.uint(254)
		for v.Cmp(bn254R) >= 0 {
			v = g.uint(254)
		}
		p.roundConsts = append(p.roundConsts, limbsOf(v))
	}
	var xs []*big.Int
	for {
		xs = xs[:0]
		seen := map[string]bool{}
		for range 2 * width {
			v := g.uint(254)
			v.Mod(v, bn254R)
			seen[v.String()] = true
			xs = append(xs, v)
		}
		if len(seen) == 2*width {
			break
		}
	}
	for i := range width {
		for j := range width {
			s := new(big.Int).Add(xs[i], xs[width+j])
			s.ModInverse(s, bn254R)
			p.mds = append(p.mds, limbsOf(s))
		}
	}
	return p
}
