package decoders

import (
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decode"
)

// AccountReads is what a source listing accounts (an RPC node's
// getProgramAccounts) reads for the decoders of cfg (decode.Reads).
func AccountReads(cfg *ingest.Config) []decode.AccountRead { return decode.Reads(cfg.Decoders...) }
