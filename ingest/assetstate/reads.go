package assetstate

import (
	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/decode"
)

var _ decode.AccountReader = Decoder{}

// AccountReads implements decode.AccountReader: what classify keeps of
// the programs that also own accounts it skips. SPL Token accounts of
// its two sizes (not multisigs), Token Metadata accounts by their key
// byte (not edition markers, token or authority records), inscriptions
// by their discriminators (not the data accounts). Token-2022 accounts
// vary in size and MPL Core's are all assets or collections: both are
// read whole.
func (Decoder) AccountReads() []decode.AccountRead {
	var reads []decode.AccountRead
	for _, n := range []uint64{mintLen, tokenAccountLen} {
		size := n
		reads = append(reads, decode.AccountRead{Owner: token.TokenProgram(), Filters: []decode.AccountFilter{{DataSize: &size}}})
	}
	for _, key := range []byte{keyMetadataV1, keyEditionV1, keyMasterEditionV1, keyMasterEditionV2} {
		reads = append(reads, decode.AccountRead{Owner: metadata.TokenMetadataProgram(),
			Filters: []decode.AccountFilter{{Memcmp: &decode.Memcmp{Bytes: []byte{key}}}}})
	}
	for _, d := range inscription.Discriminators() {
		reads = append(reads, decode.AccountRead{Owner: inscription.InscriptionProgram(),
			Filters: []decode.AccountFilter{{Memcmp: &decode.Memcmp{Bytes: d}}}})
	}
	return reads
}
