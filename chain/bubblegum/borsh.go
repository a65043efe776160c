package bubblegum

import (
	"fmt"

	"github.com/dasch-labs/dasch/internal/borsh"
)

// ErrShort reports data that ends before a field it must hold.
var ErrShort = borsh.ErrShort

// maxVec bounds Borsh vector lengths before allocating: a length can never
// exceed the bytes left, whatever the element size.
const maxVec = 1 << 16

// reader is the shared Borsh cursor with Bubblegum's types.
type reader struct{ borsh.Reader }

// newReader reads b from the start.
func newReader(b []byte) *reader { return &reader{borsh.Reader{B: b}} }

// enum reads a one-byte enum tag below n.
func (r *reader) enum(what string, n uint8) (uint8, error) {
	v, err := r.U8()
	if err != nil {
		return 0, err
	}
	if v >= n {
		return 0, fmt.Errorf("bubblegum: invalid %s %d at offset %d", what, v, r.Off-1)
	}
	return v, nil
}

func (r *reader) key() (Key, error) {
	k, err := r.Key32()
	return Key(k), err
}

func (r *reader) optKey() (*Key, error) { return borsh.Opt(&r.Reader, r.key) }

func (r *reader) optU8() (*uint8, error) { return borsh.Opt(&r.Reader, r.U8) }

func (r *reader) optEnum(what string, n uint8) (*uint8, error) {
	return borsh.Opt(&r.Reader, func() (uint8, error) { return r.enum(what, n) })
}

// vecLen reads a u32 vector length and checks that elemSize-byte elements
// can fit in what is left.
func (r *reader) vecLen(elemSize int) (int, error) {
	n, err := r.VecLen(elemSize)
	if err != nil {
		return 0, err
	}
	if n > maxVec {
		return 0, fmt.Errorf("%w: vector of %d elements at offset %d", ErrShort, n, r.Off)
	}
	return n, nil
}

func (r *reader) bytes() ([]byte, error) {
	n, err := r.vecLen(1)
	if err != nil {
		return nil, err
	}
	p, err := r.Take(n)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), p...), nil
}

func (r *reader) optStr() (*string, error) { return borsh.Opt(&r.Reader, r.Str) }

func (r *reader) creators() ([]Creator, error) {
	n, err := r.vecLen(34)
	if err != nil {
		return nil, err
	}
	out := make([]Creator, n)
	for i := range out {
		if out[i].Address, err = r.key(); err != nil {
			return nil, err
		}
		if out[i].Verified, err = r.Bool(); err != nil {
			return nil, err
		}
		if out[i].Share, err = r.U8(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Enum sizes of the metadata types.
const (
	numTokenStandards = 4 // NonFungible, FungibleAsset, Fungible, NonFungibleEdition
	numUseMethods     = 3
	numTokenPrograms  = 2
	numDataSchemas    = 3 // Binary, Json, MsgPack
)

// metadataV1 reads MetadataArgs.
func (r *reader) metadataV1() (*Metadata, error) {
	m := &Metadata{Version: 1}
	var err error
	if err = r.common(m); err != nil {
		return nil, err
	}
	if m.EditionNonce, err = r.optU8(); err != nil {
		return nil, err
	}
	if m.TokenStandard, err = r.optEnum("token standard", numTokenStandards); err != nil {
		return nil, err
	}
	ok, err := r.Option()
	if err != nil {
		return nil, err
	}
	if ok {
		c := &Collection{}
		if c.Verified, err = r.Bool(); err != nil {
			return nil, err
		}
		if c.Key, err = r.key(); err != nil {
			return nil, err
		}
		m.Collection = c
	}
	if ok, err = r.Option(); err != nil {
		return nil, err
	}
	if ok {
		u := &Uses{}
		if u.UseMethod, err = r.enum("use method", numUseMethods); err != nil {
			return nil, err
		}
		if u.Remaining, err = r.U64(); err != nil {
			return nil, err
		}
		if u.Total, err = r.U64(); err != nil {
			return nil, err
		}
		m.Uses = u
	}
	tpv, err := r.enum("token program version", numTokenPrograms)
	if err != nil {
		return nil, err
	}
	m.TokenProgramVersion = &tpv
	if m.Creators, err = r.creators(); err != nil {
		return nil, err
	}
	return m, nil
}

// metadataV2 reads MetadataArgsV2, whose collection is a bare key that
// counts as verified.
func (r *reader) metadataV2() (*Metadata, error) {
	m := &Metadata{Version: 2}
	var err error
	if err = r.common(m); err != nil {
		return nil, err
	}
	if m.TokenStandard, err = r.optEnum("token standard", numTokenStandards); err != nil {
		return nil, err
	}
	if m.Creators, err = r.creators(); err != nil {
		return nil, err
	}
	k, err := r.optKey()
	if err != nil {
		return nil, err
	}
	if k != nil {
		m.Collection = &Collection{Verified: true, Key: *k}
	}
	return m, nil
}

// common reads the members both metadata layouts start with.
func (r *reader) common(m *Metadata) error {
	var err error
	if m.Name, err = r.Str(); err != nil {
		return err
	}
	if m.Symbol, err = r.Str(); err != nil {
		return err
	}
	if m.URI, err = r.Str(); err != nil {
		return err
	}
	if m.SellerFeeBasisPoints, err = r.U16(); err != nil {
		return err
	}
	if m.PrimarySaleHappened, err = r.Bool(); err != nil {
		return err
	}
	m.IsMutable, err = r.Bool()
	return err
}

func (r *reader) updateArgs() (*UpdateArgs, error) {
	u := &UpdateArgs{}
	var err error
	if u.Name, err = r.optStr(); err != nil {
		return nil, err
	}
	if u.Symbol, err = r.optStr(); err != nil {
		return nil, err
	}
	if u.URI, err = r.optStr(); err != nil {
		return nil, err
	}
	if u.Creators, err = borsh.Opt(&r.Reader, r.creators); err != nil {
		return nil, err
	}
	if u.SellerFeeBasisPoints, err = borsh.Opt(&r.Reader, r.U16); err != nil {
		return nil, err
	}
	if u.PrimarySaleHappened, err = borsh.Opt(&r.Reader, r.Bool); err != nil {
		return nil, err
	}
	if u.IsMutable, err = borsh.Opt(&r.Reader, r.Bool); err != nil {
		return nil, err
	}
	return u, nil
}
