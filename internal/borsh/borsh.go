// Package borsh is a bounds-checked cursor over Borsh (and SPL Pack)
// encoded bytes, the encoding of Solana program accounts and instruction
// data, with the Solana and SPL types the account decoders share (public
// keys, COption). Every method fails instead of panicking, so hostile input
// can be fed in directly; decoders embed Reader and add their own types.
package borsh

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrShort reports data that ends before a field it must hold.
var ErrShort = errors.New("data too short")

// Reader reads B from offset Off.
type Reader struct {
	B   []byte
	Off int
}

// Remaining is the number of unread bytes.
func (r *Reader) Remaining() int { return len(r.B) - r.Off }

// Take returns the next n bytes (a sub-slice, not a copy).
func (r *Reader) Take(n int) ([]byte, error) {
	if n < 0 || n > len(r.B)-r.Off {
		return nil, fmt.Errorf("%w: need %d bytes at offset %d, have %d", ErrShort, n, r.Off, len(r.B)-r.Off)
	}
	p := r.B[r.Off : r.Off+n]
	r.Off += n
	return p, nil
}

func (r *Reader) U8() (uint8, error) {
	p, err := r.Take(1)
	if err != nil {
		return 0, err
	}
	return p[0], nil
}

func (r *Reader) U16() (uint16, error) {
	p, err := r.Take(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(p), nil
}

func (r *Reader) U32() (uint32, error) {
	p, err := r.Take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(p), nil
}

func (r *Reader) U64() (uint64, error) {
	p, err := r.Take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(p), nil
}

// Bool is strict like Borsh: only 0 and 1 are valid.
func (r *Reader) Bool() (bool, error) {
	v, err := r.U8()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, fmt.Errorf("invalid bool %d at offset %d", v, r.Off-1)
	}
	return v == 1, nil
}

// Option reads an Option tag (one byte, 0 or 1).
func (r *Reader) Option() (bool, error) {
	v, err := r.U8()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, fmt.Errorf("invalid option tag %d at offset %d", v, r.Off-1)
	}
	return v == 1, nil
}

// Key32 reads 32 bytes: a public key or a hash.
func (r *Reader) Key32() ([32]byte, error) {
	var k [32]byte
	p, err := r.Take(32)
	if err != nil {
		return k, err
	}
	copy(k[:], p)
	return k, nil
}

// Str reads a string with a u32 length prefix. UTF-8 is not validated: the
// program that wrote it did, and an indexer keeps what it saw.
func (r *Reader) Str() (string, error) {
	n, err := r.U32()
	if err != nil {
		return "", err
	}
	if uint64(n) > uint64(len(r.B)-r.Off) {
		return "", fmt.Errorf("%w: string of %d bytes at offset %d", ErrShort, n, r.Off)
	}
	p, _ := r.Take(int(n))
	return string(p), nil
}

// VecLen reads a u32 vector length and checks that n elements of at least
// elemSize bytes can fit in what is left, so a hostile length never makes
// a caller allocate.
func (r *Reader) VecLen(elemSize int) (int, error) {
	n, err := r.U32()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(max(elemSize, 1)) > uint64(len(r.B)-r.Off) {
		return 0, fmt.Errorf("%w: vector of %d elements at offset %d", ErrShort, n, r.Off)
	}
	return int(n), nil
}

// Opt reads an Option<T>: the tag, then the value with read when present.
func Opt[T any](r *Reader, read func() (T, error)) (*T, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	v, err := read()
	if err != nil {
		return nil, err
	}
	return &v, nil
}
