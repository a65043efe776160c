package compressedstate

import (
	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
)

var _ decode.Interested = (*Decoder)(nil)

// Interest implements decode.Interested: every compression event passes
// through Light's account-compression program, so its transactions hold
// all compressed state.
func (*Decoder) Interest() decode.Interest {
	return decode.Interest{TxPrograms: []solana.Pubkey{light.AccountCompressionProgram(), light.LightSystemProgram()}}
}
