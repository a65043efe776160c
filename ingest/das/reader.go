package das

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/ingest/solana"
)

// ErrShort reports data that ends before a field it must hold.
var ErrShort = errors.New("das: data too short")

// reader is a bounds-checked cursor over Borsh / SPL Pack encoded bytes.
// Every method fails instead of panicking so hostile account data can be
// fed in directly.
type reader struct {
	b   []byte
	off int
}

func (r *reader) take(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.off {
		return nil, fmt.Errorf("%w: need %d bytes at offset %d, have %d", ErrShort, n, r.off, len(r.b)-r.off)
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p, nil
}

func (r *reader) u8() (uint8, error) {
	p, err := r.take(1)
	if err != nil {
		return 0, err
	}
	return p[0], nil
}

func (r *reader) u16() (uint16, error) {
	p, err := r.take(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(p), nil
}

func (r *reader) u32() (uint32, error) {
	p, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(p), nil
}

func (r *reader) u64() (uint64, error) {
	p, err := r.take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(p), nil
}

// boolean is strict like Borsh: only 0 and 1 are valid.
func (r *reader) boolean() (bool, error) {
	v, err := r.u8()
	if err != nil {
		return false, err
	}
	switch v {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, fmt.Errorf("das: invalid bool %d at offset %d", v, r.off-1)
}

// option reads a Borsh Option tag (one byte, 0 or 1).
func (r *reader) option() (bool, error) {
	v, err := r.u8()
	if err != nil {
		return false, err
	}
	switch v {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, fmt.Errorf("das: invalid option tag %d at offset %d", v, r.off-1)
}

func (r *reader) pubkey() (solana.Pubkey, error) {
	var k solana.Pubkey
	p, err := r.take(32)
	if err != nil {
		return k, err
	}
	copy(k[:], p)
	return k, nil
}

// str reads a Borsh string (u32 length prefix). UTF-8 is not validated:
// the on-chain programs already did, and an indexer should keep what it saw.
func (r *reader) str() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if uint64(n) > uint64(len(r.b)-r.off) {
		return "", fmt.Errorf("%w: string of %d bytes at offset %d", ErrShort, n, r.off)
	}
	p, _ := r.take(int(n))
	return string(p), nil
}

// coptionPubkey reads an SPL COption<Pubkey>: a u32 tag then always 32
// bytes, whether or not the value is present.
func (r *reader) coptionPubkey() (*solana.Pubkey, error) {
	tag, err := r.u32()
	if err != nil {
		return nil, err
	}
	k, err := r.pubkey()
	if err != nil {
		return nil, err
	}
	switch tag {
	case 0:
		return nil, nil
	case 1:
		return &k, nil
	}
	return nil, fmt.Errorf("das: invalid COption tag %d", tag)
}

func (r *reader) coptionU64() (*uint64, error) {
	tag, err := r.u32()
	if err != nil {
		return nil, err
	}
	v, err := r.u64()
	if err != nil {
		return nil, err
	}
	switch tag {
	case 0:
		return nil, nil
	case 1:
		return &v, nil
	}
	return nil, fmt.Errorf("das: invalid COption tag %d", tag)
}

// optionalNonZeroPubkey is Token-2022's encoding: 32 bytes, all-zero means none.
func (r *reader) optionalNonZeroPubkey() (*solana.Pubkey, error) {
	k, err := r.pubkey()
	if err != nil {
		return nil, err
	}
	if k == (solana.Pubkey{}) {
		return nil, nil
	}
	return &k, nil
}
