package light

import "fmt"

// poseidonParams are the constants of one Poseidon width over BN254 with
// the x^5 S-box, as used by circom and Light (light-poseidon): the state
// holds a zero capacity element followed by the inputs.
type poseidonParams struct {
	width       int
	fullRounds  int         // split evenly before and after the partial rounds
	partial     int         // partial rounds: the S-box applies to element 0 only
	roundConsts [][4]uint64 // (fullRounds+partial)·width values, plain form
	mds         [][4]uint64 // width·width values, row-major, plain form
}

// poseidonHash hashes 32-byte big-endian field elements, each of which must
// be below the modulus. len(inputs) must be params.width-1.
func poseidonHash(p *poseidonParams, inputs ...Hash) (Hash, error) {
	return newPoseidon(p).hash(inputs...)
}

// poseidon is a width's constants moved into Montgomery form once, so hot
// paths (every Merkle tree node) do not convert them per hash.
type poseidon struct {
	width, fullRounds, partial int
	roundConsts, mds           []fr
}

func newPoseidon(p *poseidonParams) *poseidon {
	toMont := func(v [4]uint64) fr {
		x := fr(v)
		return x.mul(&frR2)
	}
	h := &poseidon{width: p.width, fullRounds: p.fullRounds, partial: p.partial,
		roundConsts: make([]fr, len(p.roundConsts)), mds: make([]fr, len(p.mds))}
	for i, v := range p.roundConsts {
		h.roundConsts[i] = toMont(v)
	}
	for i, v := range p.mds {
		h.mds[i] = toMont(v)
	}
	return h
}

func (p *poseidon) hash(inputs ...Hash) (Hash, error) {
	if len(inputs) != p.width-1 {
		return Hash{}, fmt.Errorf("poseidon: %d inputs for width %d", len(inputs), p.width)
	}
	var stateBuf, nextBuf [16]fr
	state, next := stateBuf[:p.width], nextBuf[:p.width]
	for i := range inputs {
		x, err := frFromBE((*[32]byte)(&inputs[i]))
		if err != nil {
			return Hash{}, fmt.Errorf("poseidon input %d: %w", i, err)
		}
		state[i+1] = x
	}
	half := p.fullRounds / 2
	for r := range p.fullRounds + p.partial {
		for i := range state {
			state[i] = state[i].add(&p.roundConsts[r*p.width+i])
		}
		if r < half || r >= half+p.partial {
			for i := range state {
				state[i] = state[i].pow5()
			}
		} else {
			state[0] = state[0].pow5()
		}
		for i := range next {
			var acc fr
			for j := range state {
				t := p.mds[i*p.width+j].mul(&state[j])
				acc = acc.add(&t)
			}
			next[i] = acc
		}
		state, next = next, state
	}
	return Hash(state[0].bytesBE()), nil
}
