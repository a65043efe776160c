package das

import "github.com/dasch-labs/dasch/ingest/solana"

// Inscription is a Metaplex Inscription program account that inscribes
// data onto an asset (its Root).
type Inscription struct {
	Root solana.Pubkey
}
