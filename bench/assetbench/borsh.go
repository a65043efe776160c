package assetbench

import (
	"encoding/binary"

	"github.com/dasch-labs/dasch/chain/solana"
)

// enc appends Borsh / SPL Pack encoded values: the inverse of the ingest
// decoders' reader.
type enc struct{ b []byte }

func (e *enc) u8(v uint8)   { e.b = append(e.b, v) }
func (e *enc) u16(v uint16) { e.b = binary.LittleEndian.AppendUint16(e.b, v) }
func (e *enc) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

func (e *enc) boolean(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

func (e *enc) key(k solana.Pubkey) { e.b = append(e.b, k[:]...) }

// str is a Borsh string: u32 length, then the bytes.
func (e *enc) str(s string) {
	e.u32(uint32(len(s)))
	e.b = append(e.b, s...)
}

// padded is a Borsh string padded with NULs to width bytes, as Token
// Metadata stores name, symbol and uri.
func (e *enc) padded(s string, width int) {
	n := max(len(s), width)
	e.u32(uint32(n))
	e.b = append(e.b, s...)
	for range n - len(s) {
		e.b = append(e.b, 0)
	}
}

// coption is an SPL COption<Pubkey>: u32 tag, then 32 bytes either way.
func (e *enc) coption(k *solana.Pubkey) {
	if k == nil {
		e.u32(0)
		e.b = append(e.b, make([]byte, 32)...)
		return
	}
	e.u32(1)
	e.key(*k)
}

// optKey is a Borsh Option<Pubkey>.
func (e *enc) optKey(k *solana.Pubkey) {
	if k == nil {
		e.u8(0)
		return
	}
	e.u8(1)
	e.key(*k)
}

// zeros pads to n bytes in all.
func (e *enc) zeros(n int) {
	for len(e.b) < n {
		e.b = append(e.b, 0)
	}
}
