package asset

import (
	"errors"

	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// ErrNotFound is an asset the index has no renderable state for.
var ErrNotFound = errors.New("asset not found")

// ErrNoSupply is an NFT whose mint supply is zero: burnt, or not minted.
var ErrNoSupply = errors.New("asset has no supply")

// TokenSources is the decoded on-chain state behind a Token Metadata or
// SPL token asset, as tokenSources gathers it from the rows of one mint.
type TokenSources struct {
	ID          solana.Pubkey
	Mint        *token.Mint
	MintProgram solana.Pubkey
	MintSlot    uint64
	// Metadata is the Token Metadata account of the mint; nil when none.
	Metadata     *metadata.Metadata
	MetadataSlot uint64
	// MasterEdition or Edition at the mint's edition PDA; nil when none.
	MasterEdition *metadata.MasterEdition
	Edition       *metadata.Edition
	// TokenAccount is the newest token account of the mint holding a
	// positive amount, else the newest token account of the mint (the
	// reference shows that holder for a non-fungible mint); nil when none
	// is indexed.
	TokenAccount *token.TokenAccount
	// CollectionJSON is the off-chain JSON of the metadata's collection
	// when indexed; showCollectionMetadata renders part of it ({} if nil).
	CollectionJSON []byte
	// Inscription is the inscription account whose root is the mint.
	Inscription *inscription.Inscription
	// Burnt is set when the mint or its metadata account was closed: they
	// are then the last state they had while open.
	Burnt bool
}
