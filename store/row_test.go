package store

import (
	"strings"
	"testing"
)

func TestRowReads(t *testing.T) {
	key := strings.Repeat("k", 32)
	res := &Result{
		Columns: []Column{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}, {Name: "g"}, {Name: "h"}},
		Rows:    [][]any{{uint64(7), key, nil, uint8(1), true, int64(-3), uint32(9), "s"}},
	}
	r := res.Row(0)
	if got := r.U64(0); got != 7 {
		t.Errorf("U64 = %d", got)
	}
	if got := r.Key(1); string(got[:]) != key {
		t.Errorf("Key = %x", got)
	}
	if _, ok := r.OptKey(2); ok {
		t.Error("OptKey of NULL is set")
	}
	if k, ok := r.OptKey(1); !ok || string(k[:]) != key {
		t.Errorf("OptKey = %x, %v", k, ok)
	}
	if v, ok := r.OptU64(0); !ok || v != 7 {
		t.Errorf("OptU64 = %d, %v", v, ok)
	}
	if _, ok := r.OptU64(2); ok {
		t.Error("OptU64 of NULL is set")
	}
	if !r.Bool(3) || !r.Bool(4) {
		t.Error("Bool of UInt8 1 or true is false")
	}
	if r.U8(3) != 1 || r.I64(5) != -3 || r.U32(6) != 9 || r.Str(7) != "s" {
		t.Error("wrong U8, I64, U32 or Str")
	}
	if s, ok := r.OptStr(7); !ok || s != "s" {
		t.Errorf("OptStr = %q, %v", s, ok)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("Err = %v", err)
	}
}

func TestRowMismatch(t *testing.T) {
	res := &Result{
		Columns: []Column{{Name: "slot"}, {Name: "hash"}, {Name: "seq"}},
		Rows:    [][]any{{"x", "short", nil}},
	}
	for _, tc := range []struct {
		name string
		read func(r *Row)
		want string
	}{
		{"type", func(r *Row) { r.U64(0) }, "column 0 (slot) holds string of 1 bytes, want UInt64"},
		{"width", func(r *Row) { r.Key(1) }, "column 1 (hash) holds string of 5 bytes, want FixedString(32)"},
		{"null", func(r *Row) { r.U64(2) }, "column 2 (seq) holds NULL, want UInt64"},
		{"missing", func(r *Row) { r.U64(3) }, "column 3: the row has 3 columns, want UInt64"},
		{"negative", func(r *Row) { r.Str(-1) }, "column -1: the row has 3 columns, want String"},
		{"first wins", func(r *Row) { r.Key(1); r.U64(0) }, "column 1 (hash)"},
		{"opt type", func(r *Row) { r.OptU64(0) }, "column 0 (slot) holds string of 1 bytes, want Nullable(UInt64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := res.Row(0)
			tc.read(&r)
			if err := r.Err(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Err = %v, want %q", err, tc.want)
			}
		})
	}
}
