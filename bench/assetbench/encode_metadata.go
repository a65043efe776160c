package assetbench

import (
	"github.com/dasch-labs/dasch/chain/metadata"
)

// On-chain sizes of Token Metadata accounts: the program allocates the
// maximum and pads with zeros.
const (
	metadataLen      = 679
	masterEditionLen = 282
	// The program pads name, symbol and uri to these widths.
	nameWidth   = 32
	symbolWidth = 10
	uriWidth    = 200
)

// EncodeMetadata writes a Metadata account as Token Metadata stores it,
// padded to the account size.
func EncodeMetadata(m *metadata.Metadata) []byte {
	e := &enc{b: make([]byte, 0, metadataLen)}
	e.u8(uint8(metadata.KeyMetadataV1))
	e.key(m.UpdateAuthority)
	e.key(m.Mint)
	e.padded(m.Name, nameWidth)
	e.padded(m.Symbol, symbolWidth)
	e.padded(m.URI, uriWidth)
	e.u16(m.SellerFeeBasisPoints)
	e.boolean(m.HasCreators)
	if m.HasCreators {
		e.u32(uint32(len(m.Creators)))
		for _, c := range m.Creators {
			e.key(c.Address)
			e.boolean(c.Verified)
			e.u8(c.Share)
		}
	}
	e.boolean(m.PrimarySaleHappened)
	e.boolean(m.IsMutable)
	e.optU8(m.EditionNonce)
	var ts *uint8
	if m.TokenStandard != nil {
		v := uint8(*m.TokenStandard)
		ts = &v
	}
	e.optU8(ts)
	e.boolean(m.Collection != nil)
	if c := m.Collection; c != nil {
		e.boolean(c.Verified)
		e.key(c.Key)
	}
	e.boolean(m.Uses != nil)
	if u := m.Uses; u != nil {
		e.u8(u.UseMethod)
		e.u64(u.Remaining)
		e.u64(u.Total)
	}
	e.boolean(m.CollectionDetails != nil)
	if d := m.CollectionDetails; d != nil {
		e.u8(d.Version - 1)
		if d.Version == 1 {
			e.u64(d.Size)
		} else {
			e.b = append(e.b, d.Padding[:]...)
		}
	}
	e.boolean(m.ProgrammableConfig != nil)
	if pc := m.ProgrammableConfig; pc != nil {
		e.u8(0) // V1
		e.optKey(pc.RuleSet)
	}
	e.zeros(metadataLen)
	return e.b
}

func (e *enc) optU8(v *uint8) {
	if v == nil {
		e.u8(0)
		return
	}
	e.u8(1)
	e.u8(*v)
}

// EncodeMasterEdition writes a MasterEditionV2 account, padded to size.
func EncodeMasterEdition(m *metadata.MasterEdition) []byte {
	e := &enc{b: make([]byte, 0, masterEditionLen)}
	e.u8(uint8(metadata.KeyMasterEditionV2))
	e.u64(m.Supply)
	e.boolean(m.MaxSupply != nil)
	if m.MaxSupply != nil {
		e.u64(*m.MaxSupply)
	}
	e.zeros(masterEditionLen)
	return e.b
}
