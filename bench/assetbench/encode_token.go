package assetbench

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// Token-2022 account type of a mint, written after the base layout.
const accountTypeMint = 1

// EncodeMint writes m as its program stores it: the 82-byte SPL mint, and
// for Token-2022 with extensions the zero padding to the account size, the
// account-type byte and the extensions as TLV entries. The typed
// MetadataPointer and TokenMetadata fields are written as extensions;
// m.Extensions are not (they would repeat them).
func EncodeMint(m *token.Mint) ([]byte, error) {
	e := &enc{b: make([]byte, 0, token.MintLen)}
	e.coption(m.MintAuthority)
	e.u64(m.Supply)
	e.u8(m.Decimals)
	e.boolean(m.IsInitialized)
	e.coption(m.FreezeAuthority)
	if m.MetadataPointer == nil && m.TokenMetadata == nil {
		return e.b, nil
	}
	if m.Program != token.Token2022Program() {
		return nil, fmt.Errorf("encode mint: extensions need the Token-2022 program, not %s", m.Program)
	}
	e.zeros(token.AccountLen)
	e.u8(accountTypeMint)
	if p := m.MetadataPointer; p != nil {
		e.tlv(token.ExtMetadataPointer, func(v *enc) {
			v.nonZero(p.Authority)
			v.nonZero(p.MetadataAddress)
		})
	}
	if t := m.TokenMetadata; t != nil {
		e.tlv(token.ExtTokenMetadata, func(v *enc) {
			v.nonZero(t.UpdateAuthority)
			v.key(t.Mint)
			v.str(t.Name)
			v.str(t.Symbol)
			v.str(t.URI)
			v.u32(uint32(len(t.AdditionalMetadata)))
			for _, kv := range t.AdditionalMetadata {
				v.str(kv.Key)
				v.str(kv.Value)
			}
		})
	}
	return e.b, nil
}

// tlv writes one Token-2022 extension: u16 type, u16 length, value.
func (e *enc) tlv(typ uint16, value func(*enc)) {
	v := &enc{}
	value(v)
	e.u16(typ)
	e.u16(uint16(len(v.b)))
	e.b = append(e.b, v.b...)
}

// nonZero is an OptionalNonZeroPubkey: 32 zero bytes mean none.
func (e *enc) nonZero(k *solana.Pubkey) {
	if k == nil {
		e.key(solana.Pubkey{})
		return
	}
	e.key(*k)
}

// EncodeTokenAccount writes the 165-byte SPL token account layout.
func EncodeTokenAccount(a *token.TokenAccount) []byte {
	e := &enc{b: make([]byte, 0, token.AccountLen)}
	e.key(a.Mint)
	e.key(a.Owner)
	e.u64(a.Amount)
	e.coption(a.Delegate)
	e.u8(uint8(a.State))
	if a.IsNative != nil {
		e.u32(1)
		e.u64(*a.IsNative)
	} else {
		e.u32(0)
		e.u64(0)
	}
	e.u64(a.DelegatedAmount)
	e.coption(a.CloseAuthority)
	return e.b
}
