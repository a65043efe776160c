package das

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// ErrShort reports data that ends before a field it must hold.
var ErrShort = borsh.ErrShort

// reader is the shared Borsh cursor with the SPL and Metaplex types these
// decoders read.
type reader struct{ borsh.Reader }

// newReader reads b from offset off.
func newReader(b []byte, off int) *reader { return &reader{borsh.Reader{B: b, Off: off}} }

func (r *reader) pubkey() (solana.Pubkey, error) {
	k, err := r.Key32()
	return solana.Pubkey(k), err
}

// coptionPubkey reads an SPL COption<Pubkey>: a u32 tag then always 32
// bytes, whether or not the value is present.
func (r *reader) coptionPubkey() (*solana.Pubkey, error) {
	tag, err := r.U32()
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
