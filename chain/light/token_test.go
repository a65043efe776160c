package light

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func tokenBytes(delegate *[32]byte, state byte, tail []byte) []byte {
	b := bytes.Repeat([]byte{1}, 32)              // mint
	b = append(b, bytes.Repeat([]byte{2}, 32)...) // owner
	b = binary.LittleEndian.AppendUint64(b, 1000)
	if delegate != nil {
		b = append(b, 1)
		b = append(b, delegate[:]...)
	} else {
		b = append(b, 0)
	}
	b = append(b, state)
	return append(b, tail...)
}

func TestDecodeTokenData(t *testing.T) {
	v1 := [8]byte{2}
	v2 := [8]byte{7: 3}
	v3 := [8]byte{7: 4}
	delegate := [32]byte{9, 9, 9}
	tests := []struct {
		name      string
		disc      [8]byte
		data      []byte
		wantToken bool
		wantErr   bool
		delegate  bool
		state     TokenState
		tlv       []byte
	}{
		{name: "not a token discriminator", disc: [8]byte{1}, data: tokenBytes(nil, 0, nil)},
		{name: "v1 without tlv tag", disc: v1, data: tokenBytes(nil, 0, nil), wantToken: true},
		{name: "v1 with tlv none", disc: v1, data: tokenBytes(nil, 0, []byte{0}), wantToken: true},
		{name: "v2 delegated and frozen", disc: v2, data: tokenBytes(&delegate, 1, []byte{0}), wantToken: true, delegate: true, state: TokenFrozen},
		{name: "v3 with tlv", disc: v3, data: tokenBytes(nil, 0, []byte{1, 1, 0, 0, 0, 31, 5}), wantToken: true, tlv: []byte{1, 0, 0, 0, 31, 5}},
		{name: "some tag without bytes means none", disc: v3, data: tokenBytes(nil, 0, []byte{1}), wantToken: true},
		{name: "unknown tlv tag means none", disc: v3, data: tokenBytes(nil, 0, []byte{7, 1, 2}), wantToken: true},
		{name: "truncated amount", disc: v1, data: tokenBytes(nil, 0, nil)[:70], wantToken: true, wantErr: true},
		{name: "bad delegate tag", disc: v1, data: append(tokenBytes(nil, 0, nil)[:72], 2, 0), wantToken: true, wantErr: true},
		{name: "bad state", disc: v1, data: tokenBytes(nil, 2, nil), wantToken: true, wantErr: true},
		{name: "empty", disc: v2, data: nil, wantToken: true, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			td, ok, err := DecodeTokenData(tc.disc, tc.data)
			if ok != tc.wantToken || (err != nil) != tc.wantErr {
				t.Fatalf("ok=%v err=%v, want ok=%v err=%v", ok, err, tc.wantToken, tc.wantErr)
			}
			if !ok || err != nil {
				if td != nil {
					t.Errorf("token data %+v returned with ok=%v err=%v", td, ok, err)
				}
				return
			}
			if td.Mint[0] != 1 || td.Owner[0] != 2 || td.Amount != 1000 {
				t.Errorf("fixed fields %+v", td)
			}
			if (td.Delegate != nil) != tc.delegate || (td.Delegate != nil && *td.Delegate != delegate) {
				t.Errorf("delegate %v, want present=%v", td.Delegate, tc.delegate)
			}
			if td.State != tc.state {
				t.Errorf("state %v, want %v", td.State, tc.state)
			}
			if !bytes.Equal(td.TLV, tc.tlv) || (td.TLV == nil) != (tc.tlv == nil) {
				t.Errorf("tlv %x, want %x", td.TLV, tc.tlv)
			}
		})
	}
}

func TestTokenDiscriminators(t *testing.T) {
	tests := []struct {
		disc [8]byte
		want uint64
	}{
		{[8]byte{2, 0, 0, 0, 0, 0, 0, 0}, TokenDiscriminatorV1},
		{[8]byte{0, 0, 0, 0, 0, 0, 0, 3}, TokenDiscriminatorV2},
		{[8]byte{0, 0, 0, 0, 0, 0, 0, 4}, TokenDiscriminatorV3},
	}
	for _, tc := range tests {
		if got := discriminator(tc.disc[:]); got != tc.want || !IsTokenDiscriminator(tc.disc) {
			t.Errorf("%v: %d (token %v), want %d", tc.disc, got, IsTokenDiscriminator(tc.disc), tc.want)
		}
	}
	// The API serves these as JSON numbers (README section 8).
	if TokenDiscriminatorV2 != 216172782113783808 || TokenDiscriminatorV3 != 288230376151711744 {
		t.Error("V2/V3 discriminator values differ from Photon's")
	}
}

// TestCanonicalTokenData: exactly the encodings AppendTokenData gives back
// from the decoded fields count as canonical, so storing only the fields
// of those loses nothing.
func TestCanonicalTokenData(t *testing.T) {
	v3 := [8]byte{7: 4}
	delegate := [32]byte{9, 9, 9}
	tests := []struct {
		name      string
		data      []byte
		canonical bool
	}{
		{name: "tlv none", data: tokenBytes(nil, 0, []byte{0}), canonical: true},
		{name: "delegated and frozen", data: tokenBytes(&delegate, 1, []byte{0}), canonical: true},
		{name: "with tlv", data: tokenBytes(nil, 0, []byte{1, 1, 0, 0, 0, 31, 5}), canonical: true},
		{name: "no tlv tag", data: tokenBytes(nil, 0, nil)},
		{name: "some tag without bytes", data: tokenBytes(nil, 0, []byte{1})},
		{name: "unknown tlv tag", data: tokenBytes(nil, 0, []byte{7, 1, 2})},
		{name: "trailing byte after none", data: tokenBytes(&delegate, 0, []byte{0, 0})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			td, ok, err := DecodeTokenData(v3, tc.data)
			if !ok || err != nil {
				t.Fatalf("decode: ok=%v err=%v", ok, err)
			}
			if got := IsCanonicalTokenData(td, tc.data); got != tc.canonical {
				t.Fatalf("canonical = %v, want %v", got, tc.canonical)
			}
			var del *[32]byte
			if td.Delegate != nil {
				del = (*[32]byte)(td.Delegate)
			}
			enc := AppendTokenData(nil, (*[32]byte)(&td.Mint), (*[32]byte)(&td.Owner), td.Amount, del, uint8(td.State), td.TLV)
			if tc.canonical != bytes.Equal(enc, tc.data) {
				t.Fatalf("encoded %x, data %x, canonical %v", enc, tc.data, tc.canonical)
			}
			again, _, err := DecodeTokenData(v3, enc)
			if err != nil || !IsCanonicalTokenData(again, enc) {
				t.Fatalf("re-encoding is not canonical: %v", err)
			}
		})
	}
}
