package borsh

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
)

// NewReader reads b from offset off.
func NewReader(b []byte, off int) *Reader { return &Reader{B: b, Off: off} }

// Pubkey reads a 32-byte account address.
func (r *Reader) Pubkey() (solana.Pubkey, error) {
	k, err := r.Key32()
	return solana.Pubkey(k), err
}

// COptionPubkey reads an SPL COption<Pubkey>: a u32 tag then always 32
// bytes, whether or not the value is present.
func (r *Reader) COptionPubkey() (*solana.Pubkey, error) {
	tag, err := r.U32()
	if err != nil {
		return nil, err
	}
	k, err := r.Pubkey()
	if err != nil {
		return nil, err
	}
	switch tag {
	case 0:
		return nil, nil
	case 1:
		return &k, nil
	}
	return nil, fmt.Errorf("invalid COption tag %d", tag)
}

// COptionU64 reads an SPL COption<u64>: a u32 tag then always 8 bytes.
func (r *Reader) COptionU64() (*uint64, error) {
	tag, err := r.U32()
	if err != nil {
		return nil, err
	}
	v, err := r.U64()
	if err != nil {
		return nil, err
	}
	switch tag {
	case 0:
		return nil, nil
	case 1:
		return &v, nil
	}
	return nil, fmt.Errorf("invalid COption tag %d", tag)
}

// OptionalNonZeroPubkey is Token-2022's encoding: 32 bytes, all-zero means
// none.
func (r *Reader) OptionalNonZeroPubkey() (*solana.Pubkey, error) {
	k, err := r.Pubkey()
	if err != nil {
		return nil, err
	}
	if k == (solana.Pubkey{}) {
		return nil, nil
	}
	return &k, nil
}
