package b58

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/mr-tron/base58"
)

func TestAppendMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for _, n := range []int{0, 3, 4, 8, 31, 32, 33, 64, 68} {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			inputs = append(inputs, b)
		}
		// Every count of leading zero bytes, before random and before
		// all-ones bytes.
		for z := 0; z <= n; z++ {
			r, f := make([]byte, n), make([]byte, n)
			for i := z; i < n; i++ {
				r[i], f[i] = byte(rng.Uint32()), 0xff
			}
			inputs = append(inputs, r, f)
		}
		zero := make([]byte, n)
		inputs = append(inputs, zero, bytes.Repeat([]byte{0xff}, n))
		if n > 2 {
			lead := make([]byte, n)
			lead[n-1], lead[n/2] = 1, 7
			inputs = append(inputs, lead) // leading zero bytes
			one := make([]byte, n)
			one[n-1] = 1
			inputs = append(inputs, one)
		}
	}
	for _, in := range inputs {
		want := base58.Encode(in)
		if got := string(Append([]byte("x"), in)); got != "x"+want {
			t.Fatalf("%x: got %q, want %q", in, got[1:], want)
		}
		if got := string(appendLongDivision(nil, in)); got != want {
			t.Fatalf("%x: long division %q, want %q", in, got, want)
		}
		if got := Encode(in); got != want {
			t.Fatalf("%x: Encode %q, want %q", in, got, want)
		}
	}
}

// TestPassesCannotOverflow checks the bound Append's passes rely on: a
// carried digit (below 58^5) plus the products of every limb of one pass
// at its largest value stays below 2^64, for every digit and every pass.
func TestPassesCannotOverflow(t *testing.T) {
	limit := new(big.Int).Lsh(big.NewInt(1), 64)
	maxLimb := big.NewInt(1<<32 - 1)
	for k0 := 0; k0 < maxLimbs; k0 += limbsPerPass {
		for j := 0; j < maxGroups; j++ {
			sum := big.NewInt(radix - 1)
			for k := k0; k < k0+limbsPerPass && k < maxLimbs; k++ {
				sum.Add(sum, new(big.Int).Mul(maxLimb, big.NewInt(int64(tables.pow[k][j]))))
			}
			if sum.Cmp(limit) >= 0 {
				t.Fatalf("pass from limb %d, digit %d: bound %s reaches 2^64", k0, j, sum)
			}
		}
	}
	// The table itself: digit j of 2^(32k) in base 58^5.
	for k := 0; k < maxLimbs; k++ {
		v := new(big.Int)
		for j := maxGroups - 1; j >= 0; j-- {
			v.Mul(v, big.NewInt(radix)).Add(v, big.NewInt(int64(tables.pow[k][j])))
		}
		if want := new(big.Int).Lsh(big.NewInt(1), uint(32*k)); v.Cmp(want) != 0 {
			t.Fatalf("row %d is %s, want 2^%d", k, v, 32*k)
		}
	}
}

func FuzzAppend(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, in []byte) {
		if want, got := base58.Encode(in), Encode(in); got != want {
			t.Fatalf("%x: got %q, want %q", in, got, want)
		}
	})
}

// BenchmarkEncode compares encoding a key (32 bytes) and a signature
// (64 bytes) with the reference encoder, in the same run:
//
//	go test ./internal/b58 -run '^$' -bench . -benchmem
func BenchmarkEncode(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{{"key", 32}, {"signature", 64}} {
		in := randomBytes(c.size)
		b.Run(c.name+"/reference", func(b *testing.B) {
			for b.Loop() {
				_ = base58.Encode(in)
			}
		})
		b.Run(c.name+"/long-division", func(b *testing.B) {
			buf := make([]byte, 0, 2*c.size)
			for b.Loop() {
				buf = appendLongDivision(buf[:0], in)
			}
		})
		b.Run(c.name+"/b58", func(b *testing.B) {
			buf := make([]byte, 0, 2*c.size)
			for b.Loop() {
				buf = Append(buf[:0], in)
			}
		})
	}
}

func randomBytes(n int) []byte {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// appendLongDivision is the encoder Append replaced (the number divided by
// 58^5 limb by limb, a chain of dependent divisions), kept as a second
// reference for the benchmark.
func appendLongDivision(dst, raw []byte) []byte {
	if len(raw)%4 != 0 || len(raw) > 64 {
		return append(dst, base58.Encode(raw)...)
	}
	zeros := 0
	for zeros < len(raw) && raw[zeros] == 0 {
		zeros++
	}
	// The number as big-endian 32-bit limbs.
	var limbs [16]uint64
	n := len(raw) / 4
	for i := 0; i < n; i++ {
		limbs[i] = uint64(raw[4*i])<<24 | uint64(raw[4*i+1])<<16 | uint64(raw[4*i+2])<<8 | uint64(raw[4*i+3])
	}
	// Base-58^5 digits, least significant first. 58^5 > 2^29, so 64
	// bytes need at most 18 of them (58^90 > 2^512).
	var groups [32]uint32
	g := 0
	first := 0
	for first < n {
		var rem uint64
		for i := first; i < n; i++ {
			cur := rem<<32 | limbs[i]
			limbs[i] = cur / (58 * 58 * 58 * 58 * 58)
			rem = cur % (58 * 58 * 58 * 58 * 58)
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
	var digits [160]byte
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
