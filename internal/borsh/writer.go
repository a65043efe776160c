package borsh

import (
	"encoding/binary"

	"github.com/dasch-labs/dasch/chain/solana"
)

// Writer appends Borsh and SPL Pack encoded values to B: the inverse of
// Reader, for the test and benchmark encoders that build accounts.
type Writer struct{ B []byte }

func (w *Writer) U8(v uint8)   { w.B = append(w.B, v) }
func (w *Writer) U16(v uint16) { w.B = binary.LittleEndian.AppendUint16(w.B, v) }
func (w *Writer) U32(v uint32) { w.B = binary.LittleEndian.AppendUint32(w.B, v) }
func (w *Writer) U64(v uint64) { w.B = binary.LittleEndian.AppendUint64(w.B, v) }

func (w *Writer) Bool(v bool) {
	if v {
		w.U8(1)
	} else {
		w.U8(0)
	}
}

func (w *Writer) Pubkey(k solana.Pubkey) { w.B = append(w.B, k[:]...) }

// Str is a Borsh string: u32 length, then the bytes.
func (w *Writer) Str(s string) {
	w.U32(uint32(len(s)))
	w.B = append(w.B, s...)
}

// OptionU8 is a Borsh Option<u8>.
func (w *Writer) OptionU8(v *uint8) {
	if v == nil {
		w.U8(0)
		return
	}
	w.U8(1)
	w.U8(*v)
}

// OptionPubkey is a Borsh Option<Pubkey>.
func (w *Writer) OptionPubkey(k *solana.Pubkey) {
	if k == nil {
		w.U8(0)
		return
	}
	w.U8(1)
	w.Pubkey(*k)
}

// COptionPubkey is an SPL COption<Pubkey>: u32 tag, then 32 bytes either
// way.
func (w *Writer) COptionPubkey(k *solana.Pubkey) {
	if k == nil {
		w.U32(0)
		w.B = append(w.B, make([]byte, 32)...)
		return
	}
	w.U32(1)
	w.Pubkey(*k)
}

// COptionU64 is an SPL COption<u64>: u32 tag, then 8 bytes either way.
func (w *Writer) COptionU64(v *uint64) {
	if v == nil {
		w.U32(0)
		w.U64(0)
		return
	}
	w.U32(1)
	w.U64(*v)
}

// OptionalNonZeroPubkey is Token-2022's encoding: 32 zero bytes mean none.
func (w *Writer) OptionalNonZeroPubkey(k *solana.Pubkey) {
	if k == nil {
		w.Pubkey(solana.Pubkey{})
		return
	}
	w.Pubkey(*k)
}

// PadTo appends zeros up to n bytes in all.
func (w *Writer) PadTo(n int) {
	for len(w.B) < n {
		w.B = append(w.B, 0)
	}
}
