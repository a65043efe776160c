package assetstate

import (
	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/decode"
)

var _ decode.Interested = Decoder{}

// Interest implements decode.Interested: the accounts of every program
// classify reads, and the Bubblegum transactions events come from.
func (Decoder) Interest() decode.Interest {
	return decode.Interest{
		AccountOwners: []solana.Pubkey{
			token.TokenProgram(), token.Token2022Program(), metadata.TokenMetadataProgram(),
			core.CoreProgram(), core.AgentIdentityProgram(), inscription.InscriptionProgram(),
		},
		TxPrograms: []solana.Pubkey{bubblegum.ProgramID()},
	}
}
