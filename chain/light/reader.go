package light

import (
	"encoding/binary"
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// reader decodes borsh and zero-copy (packed little-endian) layouts from an
// instruction's data. Every read is bounds-checked and names the field, so
// malformed data yields an error and never a panic.
type reader struct {
	b   []byte
	off int
}

func newReader(b []byte) *reader { return &reader{b: b} }

func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) rest() []byte { return r.b[r.off:] }

func (r *reader) short(what string, n int) error {
	return fmt.Errorf("%s: need %d bytes at offset %d, %d left", what, n, r.off, r.remaining())
}

func (r *reader) bytes(n int, what string) ([]byte, error) {
	if n < 0 || r.remaining() < n {
		return nil, r.short(what, n)
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s, nil
}

func (r *reader) u8(what string) (uint8, error) {
	b, err := r.bytes(1, what)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (r *reader) u16(what string) (uint16, error) {
	b, err := r.bytes(2, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (r *reader) u32(what string) (uint32, error) {
	b, err := r.bytes(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (r *reader) u64(what string) (uint64, error) {
	b, err := r.bytes(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// boolean reads a borsh bool, which must be 0 or 1.
func (r *reader) boolean(what string) (bool, error) {
	v, err := r.u8(what)
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, fmt.Errorf("%s: invalid bool %d at offset %d", what, v, r.off-1)
	}
	return v == 1, nil
}

// option reads a borsh Option tag and reports whether a value follows.
func (r *reader) option(what string) (bool, error) {
	v, err := r.u8(what)
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, fmt.Errorf("%s: invalid option tag %d at offset %d", what, v, r.off-1)
	}
	return v == 1, nil
}

func (r *reader) array32(what string) ([32]byte, error) {
	var out [32]byte
	b, err := r.bytes(32, what)
	if err != nil {
		return out, err
	}
	copy(out[:], b)
	return out, nil
}

func (r *reader) hash(what string) (Hash, error) {
	a, err := r.array32(what)
	return Hash(a), err
}

func (r *reader) pubkey(what string) (solana.Pubkey, error) {
	a, err := r.array32(what)
	return solana.Pubkey(a), err
}

// optArray32 reads Option<[u8; 32]>.
func (r *reader) optArray32(what string) (*[32]byte, error) {
	some, err := r.option(what)
	if err != nil || !some {
		return nil, err
	}
	a, err := r.array32(what)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// optU64 reads Option<u64>.
func (r *reader) optU64(what string) (*uint64, error) {
	some, err := r.option(what)
	if err != nil || !some {
		return nil, err
	}
	v, err := r.u64(what)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// vecLen reads a borsh u32 length and checks that the elements can fit in
// what is left (each at least minSize bytes), so a forged length cannot
// make the decoder allocate gigabytes.
func (r *reader) vecLen(what string, minSize int) (int, error) {
	n, err := r.u32(what + " length")
	if err != nil {
		return 0, err
	}
	if minSize > 0 && uint64(n)*uint64(minSize) > uint64(r.remaining()) {
		return 0, fmt.Errorf("%s: length %d does not fit in the %d bytes left", what, n, r.remaining())
	}
	return int(n), nil
}

// sliceLen reads the u8 length of a zero-copy slice of fixed-size elements.
func (r *reader) sliceLen(what string, size int) (int, error) {
	n, err := r.u8(what + " length")
	if err != nil {
		return 0, err
	}
	if int(n)*size > r.remaining() {
		return 0, fmt.Errorf("%s: %d elements of %d bytes do not fit in the %d bytes left", what, n, size, r.remaining())
	}
	return int(n), nil
}

// byteVec reads a borsh Vec<u8>.
func (r *reader) byteVec(what string) ([]byte, error) {
	n, err := r.vecLen(what, 1)
	if err != nil {
		return nil, err
	}
	return r.bytes(n, what)
}
