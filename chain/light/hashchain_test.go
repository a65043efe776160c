package light

import "testing"

func TestTwoInputsHashChain(t *testing.T) {
	a, b, c, d := Hash{31: 1}, Hash{31: 2}, Hash{31: 3}, Hash{31: 4}
	if h, err := TwoInputsHashChain(nil, nil); err != nil || h != (Hash{}) {
		t.Errorf("empty: %x %v, want zero", h, err)
	}
	one, err := TwoInputsHashChain([]Hash{a}, []Hash{b})
	if want, _ := hash2.hash(a, b); err != nil || one != want {
		t.Errorf("one pair: %x %v, want Poseidon(a, b) %x", one, err, want)
	}
	two, err := TwoInputsHashChain([]Hash{a, c}, []Hash{b, d})
	if want, _ := hash3.hash(one, c, d); err != nil || two != want {
		t.Errorf("two pairs: %x %v, want Poseidon(chain, c, d) %x", two, err, want)
	}
	if _, err := TwoInputsHashChain([]Hash{a}, nil); err == nil {
		t.Error("unequal lengths accepted")
	}
	var big Hash
	for i := range big {
		big[i] = 0xff
	}
	if _, err := TwoInputsHashChain([]Hash{big}, []Hash{a}); err == nil {
		t.Error("a value past the field accepted")
	}
}
