// Package tokentest encodes SPL Token and Token-2022 accounts as their
// programs store them, the inverse of package token's decoders, for tests
// and generated benchmark data.
package tokentest

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// Token-2022 account type of a mint, written after the base layout.
const accountTypeMint = 1

// EncodeMint writes m as its program stores it: the 82-byte SPL mint, and
// for Token-2022 with extensions the zero padding to the account size, the
// account-type byte and the extensions as TLV entries. The typed
// MetadataPointer and TokenMetadata fields are written as extensions;
// m.Extensions are not (they would repeat them).
func EncodeMint(m *token.Mint) ([]byte, error) {
	w := &borsh.Writer{B: make([]byte, 0, token.MintLen)}
	w.COptionPubkey(m.MintAuthority)
	w.U64(m.Supply)
	w.U8(m.Decimals)
	w.Bool(m.IsInitialized)
	w.COptionPubkey(m.FreezeAuthority)
	if m.MetadataPointer == nil && m.TokenMetadata == nil {
		return w.B, nil
	}
	if m.Program != token.Token2022Program() {
		return nil, fmt.Errorf("encode mint: extensions need the Token-2022 program, not %s", m.Program)
	}
	w.PadTo(token.AccountLen)
	w.U8(accountTypeMint)
	if p := m.MetadataPointer; p != nil {
		tlv(w, token.ExtMetadataPointer, func(v *borsh.Writer) {
			v.OptionalNonZeroPubkey(p.Authority)
			v.OptionalNonZeroPubkey(p.MetadataAddress)
		})
	}
	if t := m.TokenMetadata; t != nil {
		tlv(w, token.ExtTokenMetadata, func(v *borsh.Writer) {
			v.OptionalNonZeroPubkey(t.UpdateAuthority)
			v.Pubkey(t.Mint)
			v.Str(t.Name)
			v.Str(t.Symbol)
			v.Str(t.URI)
			v.U32(uint32(len(t.AdditionalMetadata)))
			for _, kv := range t.AdditionalMetadata {
				v.Str(kv.Key)
				v.Str(kv.Value)
			}
		})
	}
	return w.B, nil
}

// tlv writes one Token-2022 extension: u16 type, u16 length, value.
func tlv(w *borsh.Writer, typ uint16, value func(*borsh.Writer)) {
	v := &borsh.Writer{}
	value(v)
	w.U16(typ)
	w.U16(uint16(len(v.B)))
	w.B = append(w.B, v.B...)
}

// EncodeTokenAccount writes the 165-byte SPL token account layout.
func EncodeTokenAccount(a *token.TokenAccount) []byte {
	w := &borsh.Writer{B: make([]byte, 0, token.AccountLen)}
	w.Pubkey(a.Mint)
	w.Pubkey(a.Owner)
	w.U64(a.Amount)
	w.COptionPubkey(a.Delegate)
	w.U8(uint8(a.State))
	w.COptionU64(a.IsNative)
	w.U64(a.DelegatedAmount)
	w.COptionPubkey(a.CloseAuthority)
	return w.B
}
