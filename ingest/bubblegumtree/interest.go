package bubblegumtree

import (
	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
)

var _ decode.Interested = Decoder{}

// Interest implements decode.Interested: tree nodes come from Bubblegum
// transactions only.
func (Decoder) Interest() decode.Interest {
	return decode.Interest{TxPrograms: []solana.Pubkey{bubblegum.ProgramID()}}
}
