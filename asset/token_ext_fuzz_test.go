package asset

import (
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/token"
)

// FuzzMintExtensionsJSON renders arbitrary extensions: no panic, and what
// renders without an error is one JSON object (or nothing).
func FuzzMintExtensionsJSON(f *testing.F) {
	f.Add(uint16(token.ExtGroupPointer), make([]byte, 64), uint16(token.ExtNonTransferable), []byte(nil))
	f.Add(uint16(token.ExtTokenMetadata), make([]byte, 80), uint16(token.ExtTransferFeeConfig), make([]byte, 108))
	f.Add(uint16(token.ExtInterestBearingConfig), make([]byte, 52), uint16(999), []byte{1})
	f.Fuzz(func(t *testing.T, t1 uint16, d1 []byte, t2 uint16, d2 []byte) {
		out, err := MintExtensionsJSON(&token.Mint{Program: token.Token2022Program(),
			Extensions: []token.Extension{{Type: t1, Data: d1}, {Type: t2, Data: d2}}})
		if err != nil || out == nil {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("rendered %q: %v", out, err)
		}
	})
}
