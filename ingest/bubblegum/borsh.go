package bubblegum

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrShort reports data that ends before a field it must hold.
var ErrShort = errors.New("bubblegum: data too short")

// maxVec bounds Borsh vector lengths before allocating: a length can never
// exceed the bytes left, whatever the element size.
const maxVec = 1 << 16

// reader is a bounds-checked Borsh cursor: every method fails instead of
// panicking, so instruction data from any transaction can be fed in.
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
	if v > 1 {
		return false, fmt.Errorf("bubblegum: invalid bool %d at offset %d", v, r.off-1)
	}
	return v == 1, nil
}

// option reads a Borsh Option tag.
func (r *reader) option() (bool, error) {
	v, err := r.u8()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, fmt.Errorf("bubblegum: invalid option tag %d at offset %d", v, r.off-1)
	}
	return v == 1, nil
}

// enum reads a one-byte enum tag below n.
func (r *reader) enum(what string, n uint8) (uint8, error) {
	v, err := r.u8()
	if err != nil {
		return 0, err
	}
	if v >= n {
		return 0, fmt.Errorf("bubblegum: invalid %s %d at offset %d", what, v, r.off-1)
	}
	return v, nil
}

func (r *reader) key() (Key, error) {
	var k Key
	p, err := r.take(32)
	if err != nil {
		return k, err
	}
	copy(k[:], p)
	return k, nil
}

func (r *reader) optKey() (*Key, error) {
	ok, err := r.option()
	if err != nil || !ok {
		return nil, err
	}
	k, err := r.key()
	if err != nil {
		return nil, err
	}
	return &k, nil
}

func (r *reader) optU8() (*uint8, error) {
	ok, err := r.option()
	if err != nil || !ok {
		return nil, err
	}
	v, err := r.u8()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (r *reader) optEnum(what string, n uint8) (*uint8, error) {
	ok, err := r.option()
	if err != nil || !ok {
		return nil, err
	}
	v, err := r.enum(what, n)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// vecLen reads a u32 vector length and checks that elemSize-byte elements
// can fit in what is left.
func (r *reader) vecLen(elemSize int) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(elemSize) > uint64(len(r.b)-r.off) || n > maxVec {
		return 0, fmt.Errorf("%w: vector of %d elements at offset %d", ErrShort, n, r.off)
	}
	return int(n), nil
}

func (r *reader) bytes() ([]byte, error) {
	n, err := r.vecLen(1)
	if err != nil {
		return nil, err
	}
	p, err := r.take(n)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), p...), nil
}

// str reads a Borsh string. UTF-8 is not checked: the program did, and an
// indexer keeps what it saw.
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

func (r *reader) optStr() (*string, error) {
	ok, err := r.option()
	if err != nil || !ok {
		return nil, err
	}
	s, err := r.str()
	if err != nil {
		return nil, err
	}
	return &s, nil
}

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
		if out[i].Verified, err = r.boolean(); err != nil {
			return nil, err
		}
		if out[i].Share, err = r.u8(); err != nil {
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
	ok, err := r.option()
	if err != nil {
		return nil, err
	}
	if ok {
		c := &Collection{}
		if c.Verified, err = r.boolean(); err != nil {
			return nil, err
		}
		if c.Key, err = r.key(); err != nil {
			return nil, err
		}
		m.Collection = c
	}
	if ok, err = r.option(); err != nil {
		return nil, err
	}
	if ok {
		u := &Uses{}
		if u.UseMethod, err = r.enum("use method", numUseMethods); err != nil {
			return nil, err
		}
		if u.Remaining, err = r.u64(); err != nil {
			return nil, err
		}
		if u.Total, err = r.u64(); err != nil {
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
	if m.Name, err = r.str(); err != nil {
		return err
	}
	if m.Symbol, err = r.str(); err != nil {
		return err
	}
	if m.URI, err = r.str(); err != nil {
		return err
	}
	if m.SellerFeeBasisPoints, err = r.u16(); err != nil {
		return err
	}
	if m.PrimarySaleHappened, err = r.boolean(); err != nil {
		return err
	}
	m.IsMutable, err = r.boolean()
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
	ok, err := r.option()
	if err != nil {
		return nil, err
	}
	if ok {
		cs, err := r.creators()
		if err != nil {
			return nil, err
		}
		u.Creators = &cs
	}
	if ok, err = r.option(); err != nil {
		return nil, err
	}
	if ok {
		v, err := r.u16()
		if err != nil {
			return nil, err
		}
		u.SellerFeeBasisPoints = &v
	}
	if ok, err = r.option(); err != nil {
		return nil, err
	}
	if ok {
		v, err := r.boolean()
		if err != nil {
			return nil, err
		}
		u.PrimarySaleHappened = &v
	}
	if ok, err = r.option(); err != nil {
		return nil, err
	}
	if ok {
		v, err := r.boolean()
		if err != nil {
			return nil, err
		}
		u.IsMutable = &v
	}
	return u, nil
}
