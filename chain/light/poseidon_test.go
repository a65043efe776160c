package light

import (
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"testing"
)

func frBig(x fr) *big.Int {
	b := x.bytesBE()
	return new(big.Int).SetBytes(b[:])
}

func bigBytes(v *big.Int) [32]byte {
	var b [32]byte
	v.FillBytes(b[:])
	return b
}

func TestFieldMatchesBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	qMinus1 := new(big.Int).Sub(bn254R, big.NewInt(1))
	randElem := func() *big.Int {
		switch rng.IntN(4) {
		case 0:
			return big.NewInt(0)
		case 1:
			return new(big.Int).Set(qMinus1)
		}
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return new(big.Int).Mod(new(big.Int).SetBytes(b), bn254R)
	}
	for range 2000 {
		a, b := randElem(), randElem()
		ab, bb := bigBytes(a), bigBytes(b)
		x, err := frFromBE(&ab)
		if err != nil {
			t.Fatal(err)
		}
		y, err := frFromBE(&bb)
		if err != nil {
			t.Fatal(err)
		}
		if got := frBig(x); got.Cmp(a) != 0 {
			t.Fatalf("round trip %v: got %v", a, got)
		}
		sum := new(big.Int).Add(a, b)
		sum.Mod(sum, bn254R)
		if got := frBig(x.add(&y)); got.Cmp(sum) != 0 {
			t.Fatalf("%v + %v = %v, want %v", a, b, got, sum)
		}
		prod := new(big.Int).Mul(a, b)
		prod.Mod(prod, bn254R)
		if got := frBig(x.mul(&y)); got.Cmp(prod) != 0 {
			t.Fatalf("%v * %v = %v, want %v", a, b, got, prod)
		}
		p5 := new(big.Int).Exp(a, big.NewInt(5), bn254R)
		if got := frBig(x.pow5()); got.Cmp(p5) != 0 {
			t.Fatalf("%v^5 = %v, want %v", a, got, p5)
		}
	}
}

func TestFieldRejectsOutOfRange(t *testing.T) {
	tests := []struct {
		name string
		v    *big.Int
		ok   bool
	}{
		{"zero", big.NewInt(0), true},
		{"q-1", new(big.Int).Sub(bn254R, big.NewInt(1)), true},
		{"q", new(big.Int).Set(bn254R), false},
		{"2^256-1", new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := bigBytes(tc.v)
			_, err := frFromBE(&b)
			if (err == nil) != tc.ok {
				t.Errorf("frFromBE(%v) error = %v, want ok=%v", tc.v, err, tc.ok)
			}
		})
	}
}

func TestPoseidonTableMatchesGrain(t *testing.T) {
	want := grainParams(4)
	got := poseidonT4
	if got.width != want.width || got.fullRounds != want.fullRounds || got.partial != want.partial {
		t.Fatalf("shape %d/%d/%d, want %d/%d/%d", got.width, got.fullRounds, got.partial, want.width, want.fullRounds, want.partial)
	}
	if len(got.roundConsts) != len(want.roundConsts) || len(got.mds) != len(want.mds) {
		t.Fatalf("%d constants and %d MDS entries, want %d and %d", len(got.roundConsts), len(got.mds), len(want.roundConsts), len(want.mds))
	}
	for i := range want.roundConsts {
		if got.roundConsts[i] != want.roundConsts[i] {
			t.Fatalf("round constant %d differs", i)
		}
	}
	for i := range want.mds {
		if got.mds[i] != want.mds[i] {
			t.Fatalf("MDS entry %d differs", i)
		}
	}
}

func hexHash(t *testing.T, s string) Hash {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("hex %q: %v", s, err)
	}
	return Hash(b)
}

func smallHash(v uint64) Hash {
	var h Hash
	for i := range 8 {
		h[31-i] = byte(v >> (8 * i))
	}
	return h
}

// Known answers of circom's Poseidon (circomlibjs, light-poseidon).
func TestPoseidonKnownAnswers(t *testing.T) {
	tests := []struct {
		name   string
		params *poseidonParams
		inputs []Hash
		want   string
	}{
		{"width 3 of [1,2]", grainParams(3), []Hash{smallHash(1), smallHash(2)},
			"115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"},
		{"width 4 of [1,2,3]", &poseidonT4, []Hash{smallHash(1), smallHash(2), smallHash(3)},
			"0e7732d89e6939c0ff03d5e58dab6302f3230e269dc5b968f725df34ab36d732"},
		{"width 5 of [1,2,3,4]", grainParams(5), []Hash{smallHash(1), smallHash(2), smallHash(3), smallHash(4)},
			"299c867db6c1fdd79dcefa40e4510b9837e60ebb1ce0663dbaa525df65250465"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := poseidonHash(tc.params, tc.inputs...)
			if err != nil {
				t.Fatal(err)
			}
			if want := hexHash(t, tc.want); got != want {
				t.Errorf("got %x, want %s", got[:], tc.want)
			}
		})
	}
}

func TestPoseidonInputErrors(t *testing.T) {
	tests := []struct {
		name   string
		inputs []Hash
	}{
		{"too few inputs", []Hash{{}, {}}},
		{"input above the modulus", []Hash{{0xff}, {}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := poseidonHash(&poseidonT4, tc.inputs...); err == nil {
				t.Error("no error")
			}
		})
	}
}
