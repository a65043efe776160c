package light

import "fmt"

// TwoInputsHashChain chains pairs as Light's programs and prover do:
// Poseidon(first[0], second[0]), then Poseidon(chain, first[i],
// second[i]) for each later pair; no pairs chain to the zero hash. A V2
// validity proof's public input hash is built from such chains of roots
// and leaves.
func TwoInputsHashChain(first, second []Hash) (Hash, error) {
	if len(first) != len(second) {
		return Hash{}, fmt.Errorf("light: hash chain of %d and %d inputs", len(first), len(second))
	}
	if len(first) == 0 {
		return Hash{}, nil
	}
	chain, err := hash2.hash(first[0], second[0])
	if err != nil {
		return Hash{}, err
	}
	for i := 1; i < len(first); i++ {
		if chain, err = hash3.hash(chain, first[i], second[i]); err != nil {
			return Hash{}, err
		}
	}
	return chain, nil
}
