package b58

import (
	"bytes"
	"testing"

	"github.com/mr-tron/base58"
)

func TestAppendLong(t *testing.T) {
	for _, raw := range [][]byte{nil, {0}, make([]byte, 100), bytes.Repeat([]byte{0xff}, 1232), append([]byte{0, 0, 1}, bytes.Repeat([]byte{7}, 70)...),
		bytes.Repeat([]byte{1, 2, 3}, 23), append(make([]byte, 66), 9)} {
		if got, want := string(AppendLong([]byte("x"), raw)), "x"+base58.Encode(raw); got != want {
			t.Errorf("%d bytes: %s, want %s", len(raw), got, want)
		}
	}
}

func FuzzAppendLong(f *testing.F) {
	f.Add(bytes.Repeat([]byte{0xab}, 67))
	f.Add(append(make([]byte, 5), bytes.Repeat([]byte{1}, 90)...))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := string(AppendLong(nil, raw)), base58.Encode(raw); got != want {
			t.Fatalf("%x: %s, want %s", raw, got, want)
		}
	})
}
