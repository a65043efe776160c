// Package metadatatest encodes Token Metadata accounts as the program
// stores them, the inverse of package metadata's decoders, for tests and
// generated benchmark data.
package metadatatest

import (
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/internal/borsh"
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
	w := &borsh.Writer{B: make([]byte, 0, metadataLen)}
	w.U8(uint8(metadata.KeyMetadataV1))
	w.Pubkey(m.UpdateAuthority)
	w.Pubkey(m.Mint)
	padded(w, m.Name, nameWidth)
	padded(w, m.Symbol, symbolWidth)
	padded(w, m.URI, uriWidth)
	w.U16(m.SellerFeeBasisPoints)
	w.Bool(m.HasCreators)
	if m.HasCreators {
		w.U32(uint32(len(m.Creators)))
		for _, c := range m.Creators {
			w.Pubkey(c.Address)
			w.Bool(c.Verified)
			w.U8(c.Share)
		}
	}
	w.Bool(m.PrimarySaleHappened)
	w.Bool(m.IsMutable)
	w.OptionU8(m.EditionNonce)
	var ts *uint8
	if m.TokenStandard != nil {
		v := uint8(*m.TokenStandard)
		ts = &v
	}
	w.OptionU8(ts)
	w.Bool(m.Collection != nil)
	if c := m.Collection; c != nil {
		w.Bool(c.Verified)
		w.Pubkey(c.Key)
	}
	w.Bool(m.Uses != nil)
	if u := m.Uses; u != nil {
		w.U8(u.UseMethod)
		w.U64(u.Remaining)
		w.U64(u.Total)
	}
	w.Bool(m.CollectionDetails != nil)
	if d := m.CollectionDetails; d != nil {
		w.U8(d.Version - 1)
		if d.Version == 1 {
			w.U64(d.Size)
		} else {
			w.B = append(w.B, d.Padding[:]...)
		}
	}
	w.Bool(m.ProgrammableConfig != nil)
	if pc := m.ProgrammableConfig; pc != nil {
		w.U8(0) // V1
		w.OptionPubkey(pc.RuleSet)
	}
	w.PadTo(metadataLen)
	return w.B
}

// padded is a Borsh string padded with NULs to width bytes, as Token
// Metadata stores name, symbol and uri.
func padded(w *borsh.Writer, s string, width int) {
	n := max(len(s), width)
	w.U32(uint32(n))
	w.B = append(w.B, s...)
	for range n - len(s) {
		w.B = append(w.B, 0)
	}
}

// EncodeMasterEdition writes a MasterEditionV2 account, padded to size.
func EncodeMasterEdition(m *metadata.MasterEdition) []byte {
	w := &borsh.Writer{B: make([]byte, 0, masterEditionLen)}
	w.U8(uint8(metadata.KeyMasterEditionV2))
	w.U64(m.Supply)
	w.Bool(m.MaxSupply != nil)
	if m.MaxSupply != nil {
		w.U64(*m.MaxSupply)
	}
	w.PadTo(masterEditionLen)
	return w.B
}
