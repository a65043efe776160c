package borsh

import (
	"errors"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

func TestReader(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		read    func(r *Reader) (any, error)
		want    any
		wantErr error // nil: any error; checked with errors.Is when set
		fails   bool
	}{
		{"u8", []byte{7}, func(r *Reader) (any, error) { return r.U8() }, uint8(7), nil, false},
		{"u16 LE", []byte{1, 2}, func(r *Reader) (any, error) { return r.U16() }, uint16(0x0201), nil, false},
		{"u32 LE", []byte{1, 0, 0, 1}, func(r *Reader) (any, error) { return r.U32() }, uint32(0x01000001), nil, false},
		{"u64 LE", []byte{1, 0, 0, 0, 0, 0, 0, 2}, func(r *Reader) (any, error) { return r.U64() }, uint64(0x0200000000000001), nil, false},
		{"u64 short", []byte{1, 2, 3}, func(r *Reader) (any, error) { return r.U64() }, nil, ErrShort, true},
		{"bool true", []byte{1}, func(r *Reader) (any, error) { return r.Bool() }, true, nil, false},
		{"bool 2 refused", []byte{2}, func(r *Reader) (any, error) { return r.Bool() }, nil, nil, true},
		{"option 3 refused", []byte{3}, func(r *Reader) (any, error) { return r.Option() }, nil, nil, true},
		{"string", []byte{2, 0, 0, 0, 'h', 'i'}, func(r *Reader) (any, error) { return r.Str() }, "hi", nil, false},
		{"string longer than data", []byte{9, 0, 0, 0, 'h'}, func(r *Reader) (any, error) { return r.Str() }, nil, ErrShort, true},
		{"huge vec length refused", []byte{0xff, 0xff, 0xff, 0xff, 0}, func(r *Reader) (any, error) { return r.VecLen(32) }, nil, ErrShort, true},
		{"vec fits", []byte{2, 0, 0, 0, 1, 2}, func(r *Reader) (any, error) { return r.VecLen(1) }, 2, nil, false},
		{"key short", make([]byte, 31), func(r *Reader) (any, error) { return r.Key32() }, nil, ErrShort, true},
		{"negative take", []byte{1}, func(r *Reader) (any, error) { return r.Take(-1) }, nil, ErrShort, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Reader{B: tc.data}
			got, err := tc.read(r)
			if tc.fails {
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestOffsets: reads advance the offset, a failed read does not.
func TestOffsets(t *testing.T) {
	r := &Reader{B: []byte{1, 2, 3}}
	if _, err := r.U16(); err != nil || r.Off != 2 || r.Remaining() != 1 {
		t.Fatalf("after u16: off %d remaining %d err %v", r.Off, r.Remaining(), err)
	}
	if _, err := r.U16(); err == nil || r.Off != 2 {
		t.Fatalf("short u16: off %d err %v", r.Off, err)
	}
}

func TestOpt(t *testing.T) {
	r := &Reader{B: []byte{0, 1, 7, 1}}
	if v, err := Opt(r, r.U8); v != nil || err != nil {
		t.Fatalf("None: %v %v", v, err)
	}
	if v, err := Opt(r, r.U8); err != nil || v == nil || *v != 7 {
		t.Fatalf("Some(7): %v %v", v, err)
	}
	if _, err := Opt(r, r.U8); !errors.Is(err, ErrShort) {
		t.Fatalf("Some without a value: %v, want ErrShort", err)
	}
}

// TestSPL: a COption holds its value's bytes whether or not it is present,
// and an all-zero OptionalNonZeroPubkey is none.
func TestSPL(t *testing.T) {
	some := append([]byte{1, 0, 0, 0}, make([]byte, 32)...)
	some[4] = 7
	none := make([]byte, 36)
	bad := append([]byte{2, 0, 0, 0}, make([]byte, 32)...)
	if k, err := NewReader(some, 0).COptionPubkey(); err != nil || k == nil || k[0] != 7 {
		t.Errorf("Some: %v %v", k, err)
	}
	r := NewReader(none, 0)
	if k, err := r.COptionPubkey(); err != nil || k != nil || r.Off != 36 {
		t.Errorf("None: %v %v, offset %d", k, err, r.Off)
	}
	if _, err := NewReader(bad, 0).COptionPubkey(); err == nil {
		t.Error("tag 2 accepted")
	}
	if v, err := NewReader(append([]byte{1, 0, 0, 0}, 5, 0, 0, 0, 0, 0, 0, 0), 0).COptionU64(); err != nil || v == nil || *v != 5 {
		t.Errorf("Some(5): %v %v", v, err)
	}
	if k, err := NewReader(make([]byte, 32), 0).OptionalNonZeroPubkey(); err != nil || k != nil {
		t.Errorf("zero key: %v %v", k, err)
	}
	if k, err := NewReader(some[4:], 0).OptionalNonZeroPubkey(); err != nil || k == nil || k[0] != 7 {
		t.Errorf("key: %v %v", k, err)
	}
}

// TestWriter: what Writer appends, Reader reads back.
func TestWriter(t *testing.T) {
	var k solana.Pubkey
	k[0] = 9
	n, v := uint64(5), uint8(3)
	w := &Writer{}
	w.U16(0x0201)
	w.Bool(true)
	w.Str("hi")
	w.OptionU8(&v)
	w.OptionPubkey(nil)
	w.COptionPubkey(&k)
	w.COptionU64(&n)
	w.OptionalNonZeroPubkey(nil)
	w.PadTo(len(w.B) + 3)
	r := NewReader(w.B, 0)
	u16, _ := r.U16()
	b, _ := r.Bool()
	s, _ := r.Str()
	o8, _ := Opt(r, r.U8)
	ok, _ := Opt(r, r.Pubkey)
	ck, _ := r.COptionPubkey()
	c64, _ := r.COptionU64()
	nz, err := r.OptionalNonZeroPubkey()
	if err != nil || u16 != 0x0201 || !b || s != "hi" || o8 == nil || *o8 != 3 || ok != nil ||
		ck == nil || *ck != k || c64 == nil || *c64 != 5 || nz != nil || r.Remaining() != 3 {
		t.Errorf("read back %v %v %q %v %v %v %v %v, %d left, err %v", u16, b, s, o8, ok, ck, c64, nz, r.Remaining(), err)
	}
}
