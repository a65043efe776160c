// Package rowbinary reads ClickHouse's RowBinary output formats: a Reader
// of single values for callers that decode a known row layout into their
// own types, and Decode, which turns RowBinaryWithNamesAndTypes of any
// layout into a store.Result.
package rowbinary

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrShort is the error of a read past the end of the data.
var ErrShort = errors.New("unexpected end of data")

// Reader reads RowBinary values from a buffer. The first short read sets
// Err, and every read after it returns a zero value, so a caller checks
// Err once per row instead of once per value.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a Reader over b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err is the first read's error, or nil.
func (r *Reader) Err() error { return r.err }

// More tells whether data is left and no read failed.
func (r *Reader) More() bool { return r.err == nil && r.off < len(r.b) }

// Take returns the next n bytes, in the buffer.
func (r *Reader) Take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = ErrShort
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// Uvarint reads a LEB128 length.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = ErrShort
		return 0
	}
	r.off += n
	return v
}

// U8 reads a UInt8 (also a Bool, or a Nullable's marker).
func (r *Reader) U8() uint8 {
	if p := r.Take(1); p != nil {
		return p[0]
	}
	return 0
}

// U64 reads a UInt64.
func (r *Reader) U64() uint64 {
	if p := r.Take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// Present reads a Nullable's marker: true when a value follows.
func (r *Reader) Present() bool { return r.U8() == 0 && r.err == nil }

// StrBytes reads a String's bytes, in the buffer.
func (r *Reader) StrBytes() []byte {
	n := r.Uvarint()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.err = ErrShort
		return nil
	}
	return r.Take(int(n))
}

// Bytes reads a String as a copy, so what a caller keeps does not hold
// the whole buffer alive. An empty String is an empty, non-nil slice.
func (r *Reader) Bytes() []byte {
	if p := r.StrBytes(); p != nil {
		return append([]byte{}, p...)
	}
	return nil
}

// Str reads a String.
func (r *Reader) Str() string { return string(r.StrBytes()) }

// Header reads RowBinaryWithNamesAndTypes's header: the column names and
// their types. Empty output (no rows, no header) has no columns.
func (r *Reader) Header() (names, types []string, err error) {
	if len(r.b) == 0 {
		return nil, nil, nil
	}
	n := r.Uvarint()
	// Each name and type takes at least a byte: a count above what is
	// left is corrupt, and must not size the slices.
	if r.err == nil && n > uint64(len(r.b)-r.off)/2 {
		return nil, nil, fmt.Errorf("header: %d columns in %d bytes", n, len(r.b)-r.off)
	}
	names, types = make([]string, n), make([]string, n)
	for i := range names {
		names[i] = r.Str()
	}
	for i := range types {
		types[i] = r.Str()
	}
	if r.err != nil {
		return nil, nil, fmt.Errorf("header: %w", r.err)
	}
	return names, types, nil
}

// Expect reads the header and checks it has exactly the given types, in
// order: a caller decoding a fixed layout refuses any other. Empty output
// passes.
func (r *Reader) Expect(want []string) error {
	if len(r.b) == 0 {
		return nil
	}
	_, types, err := r.Header()
	if err != nil {
		return err
	}
	if len(types) != len(want) {
		return fmt.Errorf("%d columns, want %d", len(types), len(want))
	}
	for i, t := range types {
		if t != want[i] {
			return fmt.Errorf("column %d is %s, want %s", i, t, want[i])
		}
	}
	return nil
}
