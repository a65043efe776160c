package b58

import (
	"bytes"
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
		if got := Encode(in); got != want {
			t.Fatalf("%x: Encode %q, want %q", in, got, want)
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
