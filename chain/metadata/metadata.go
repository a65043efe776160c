package metadata

import (
	"fmt"
	"strings"

	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// tokenMetadataProgram is exported through a function so callers cannot
// reassign it.
var tokenMetadataProgram = solana.MustParsePubkey("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s")

// TokenMetadataProgram is the Metaplex Token Metadata program id.
func TokenMetadataProgram() solana.Pubkey { return tokenMetadataProgram }

// Key is the Token Metadata account discriminator (first byte).
type Key uint8

// Token Metadata account keys used here.
const (
	KeyUninitialized   Key = 0
	KeyEditionV1       Key = 1
	KeyMasterEditionV1 Key = 2
	KeyMetadataV1      Key = 4
	KeyMasterEditionV2 Key = 6
)

// TokenStandard is the Token Metadata token_standard enum.
type TokenStandard uint8

// Token standards in on-chain order.
const (
	NonFungible TokenStandard = iota
	FungibleAsset
	Fungible
	NonFungibleEdition
	ProgrammableNonFungible
	ProgrammableNonFungibleEdition
)

// Creator is one entry of Metadata.creators.
type Creator struct {
	Address  solana.Pubkey
	Verified bool
	Share    uint8
}

// Collection is Metadata.collection.
type Collection struct {
	Verified bool
	Key      solana.Pubkey
}

// Uses is Metadata.uses.
type Uses struct {
	UseMethod uint8 // 0 burn, 1 multiple, 2 single
	Remaining uint64
	Total     uint64
}

// CollectionDetails is Metadata.collection_details. V1 carries a size; V2
// only reserves space.
type CollectionDetails struct {
	Version uint8 // 1 or 2
	Size    uint64
	Padding [8]byte
}

// ProgrammableConfig is Metadata.programmable_config (V1 only exists).
type ProgrammableConfig struct {
	RuleSet *solana.Pubkey
}

// Metadata is a Token Metadata program Metadata account.
type Metadata struct {
	Key                  Key
	UpdateAuthority      solana.Pubkey
	Mint                 solana.Pubkey
	Name                 string // trailing NULs trimmed
	Symbol               string
	URI                  string
	SellerFeeBasisPoints uint16
	Creators             []Creator // nil when the option is absent
	HasCreators          bool      // distinguishes Some(empty) from None
	PrimarySaleHappened  bool
	IsMutable            bool
	EditionNonce         *uint8

	// Fields added in later program versions; nil when absent or unreadable.
	TokenStandard      *TokenStandard
	Collection         *Collection
	Uses               *Uses
	CollectionDetails  *CollectionDetails
	ProgrammableConfig *ProgrammableConfig
}

// MasterEdition is a MasterEditionV1 or V2 account; V1's printing mints are
// deprecated and not kept.
type MasterEdition struct {
	Key       Key
	Supply    uint64
	MaxSupply *uint64
}

// Edition is a print Edition account.
type Edition struct {
	Parent  solana.Pubkey
	Edition uint64
}

// maxCreators is the program's limit; a larger count is corrupt data.
const maxCreators = 5

// DecodeMetadata decodes a Metadata account. It follows the program's own
// lenient reader: fields up to edition_nonce are required; the later ones
// fall back to nil when they do not parse, because old accounts hold
// arbitrary bytes there.
func DecodeMetadata(owner solana.Pubkey, data []byte) (*Metadata, error) {
	if owner != tokenMetadataProgram {
		return nil, fmt.Errorf("metadata: owner %s is not the token metadata program", owner)
	}
	r := borsh.NewReader(data, 0)
	k, err := r.U8()
	if err != nil {
		return nil, err
	}
	if Key(k) != KeyMetadataV1 {
		return nil, fmt.Errorf("metadata: key %d, want %d", k, KeyMetadataV1)
	}
	m := &Metadata{Key: Key(k)}
	if m.UpdateAuthority, err = r.Pubkey(); err != nil {
		return nil, err
	}
	if m.Mint, err = r.Pubkey(); err != nil {
		return nil, err
	}
	for _, s := range []*string{&m.Name, &m.Symbol, &m.URI} {
		v, err := r.Str()
		if err != nil {
			return nil, fmt.Errorf("metadata: %w", err)
		}
		// The program pads these to fixed widths with NULs.
		*s = strings.TrimRight(v, "\x00")
	}
	if m.SellerFeeBasisPoints, err = r.U16(); err != nil {
		return nil, err
	}
	if m.HasCreators, err = r.Option(); err != nil {
		return nil, fmt.Errorf("metadata creators: %w", err)
	}
	if m.HasCreators {
		n, err := r.U32()
		if err != nil {
			return nil, err
		}
		if n > maxCreators {
			return nil, fmt.Errorf("metadata: %d creators", n)
		}
		m.Creators = make([]Creator, 0, n)
		for range n {
			var c Creator
			if c.Address, err = r.Pubkey(); err != nil {
				return nil, err
			}
			if c.Verified, err = r.Bool(); err != nil {
				return nil, err
			}
			if c.Share, err = r.U8(); err != nil {
				return nil, err
			}
			m.Creators = append(m.Creators, c)
		}
	}
	if m.PrimarySaleHappened, err = r.Bool(); err != nil {
		return nil, err
	}
	if m.IsMutable, err = r.Bool(); err != nil {
		return nil, err
	}
	if m.EditionNonce, err = optU8(r); err != nil {
		return nil, fmt.Errorf("metadata edition nonce: %w", err)
	}

	// token_standard, collection and uses were added together; the program
	// drops all three if any fails, since corrupt bytes may parse partially.
	ts, err1 := optTokenStandard(r)
	col, err2 := optCollection(r)
	uses, err3 := optUses(r)
	if err1 != nil || err2 != nil || err3 != nil {
		// The cursor position is no longer trustworthy; stop here.
		return m, nil
	}
	m.TokenStandard, m.Collection, m.Uses = ts, col, uses
	cd, err := optCollectionDetails(r)
	if err != nil {
		return m, nil
	}
	m.CollectionDetails = cd
	if pc, err := optProgrammableConfig(r); err == nil {
		m.ProgrammableConfig = pc
	}
	return m, nil
}

func optU8(r *borsh.Reader) (*uint8, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	v, err := r.U8()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func optTokenStandard(r *borsh.Reader) (*TokenStandard, error) {
	v, err := optU8(r)
	if err != nil || v == nil {
		return nil, err
	}
	if *v > uint8(ProgrammableNonFungibleEdition) {
		return nil, fmt.Errorf("invalid token standard %d", *v)
	}
	ts := TokenStandard(*v)
	return &ts, nil
}

func optCollection(r *borsh.Reader) (*Collection, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	c := &Collection{}
	if c.Verified, err = r.Bool(); err != nil {
		return nil, err
	}
	if c.Key, err = r.Pubkey(); err != nil {
		return nil, err
	}
	return c, nil
}

func optUses(r *borsh.Reader) (*Uses, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	u := &Uses{}
	if u.UseMethod, err = r.U8(); err != nil {
		return nil, err
	}
	if u.UseMethod > 2 {
		return nil, fmt.Errorf("invalid use method %d", u.UseMethod)
	}
	if u.Remaining, err = r.U64(); err != nil {
		return nil, err
	}
	if u.Total, err = r.U64(); err != nil {
		return nil, err
	}
	return u, nil
}

func optCollectionDetails(r *borsh.Reader) (*CollectionDetails, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	variant, err := r.U8()
	if err != nil {
		return nil, err
	}
	d := &CollectionDetails{Version: variant + 1}
	switch variant {
	case 0:
		if d.Size, err = r.U64(); err != nil {
			return nil, err
		}
	case 1:
		p, err := r.Take(8)
		if err != nil {
			return nil, err
		}
		copy(d.Padding[:], p)
	default:
		return nil, fmt.Errorf("invalid collection details variant %d", variant)
	}
	return d, nil
}

func optProgrammableConfig(r *borsh.Reader) (*ProgrammableConfig, error) {
	ok, err := r.Option()
	if err != nil || !ok {
		return nil, err
	}
	variant, err := r.U8()
	if err != nil {
		return nil, err
	}
	if variant != 0 {
		return nil, fmt.Errorf("invalid programmable config variant %d", variant)
	}
	pc := &ProgrammableConfig{}
	has, err := r.Option()
	if err != nil {
		return nil, err
	}
	if has {
		k, err := r.Pubkey()
		if err != nil {
			return nil, err
		}
		pc.RuleSet = &k
	}
	return pc, nil
}

// DecodeMasterEdition decodes a MasterEditionV1 or V2 account.
func DecodeMasterEdition(owner solana.Pubkey, data []byte) (*MasterEdition, error) {
	if owner != tokenMetadataProgram {
		return nil, fmt.Errorf("master edition: owner %s is not the token metadata program", owner)
	}
	r := borsh.NewReader(data, 0)
	k, err := r.U8()
	if err != nil {
		return nil, err
	}
	if Key(k) != KeyMasterEditionV1 && Key(k) != KeyMasterEditionV2 {
		return nil, fmt.Errorf("master edition: key %d", k)
	}
	e := &MasterEdition{Key: Key(k)}
	if e.Supply, err = r.U64(); err != nil {
		return nil, err
	}
	has, err := r.Option()
	if err != nil {
		return nil, fmt.Errorf("master edition max supply: %w", err)
	}
	if has {
		v, err := r.U64()
		if err != nil {
			return nil, err
		}
		e.MaxSupply = &v
	}
	return e, nil
}

// DecodeEdition decodes a print Edition account.
func DecodeEdition(owner solana.Pubkey, data []byte) (*Edition, error) {
	if owner != tokenMetadataProgram {
		return nil, fmt.Errorf("edition: owner %s is not the token metadata program", owner)
	}
	r := borsh.NewReader(data, 0)
	k, err := r.U8()
	if err != nil {
		return nil, err
	}
	if Key(k) != KeyEditionV1 {
		return nil, fmt.Errorf("edition: key %d, want %d", k, KeyEditionV1)
	}
	e := &Edition{}
	if e.Parent, err = r.Pubkey(); err != nil {
		return nil, err
	}
	if e.Edition, err = r.U64(); err != nil {
		return nil, err
	}
	return e, nil
}

// MetadataPDA is the Metadata account address of a mint.
func MetadataPDA(mint solana.Pubkey) solana.Pubkey {
	return pda([]byte("metadata"), tokenMetadataProgram[:], mint[:])
}

// EditionPDA is the (master or print) edition account address of a mint.
func EditionPDA(mint solana.Pubkey) solana.Pubkey {
	return pda([]byte("metadata"), tokenMetadataProgram[:], mint[:], []byte("edition"))
}

func pda(seeds ...[]byte) solana.Pubkey {
	k, _, err := sgo.FindProgramAddress(seeds, sgo.PublicKey(tokenMetadataProgram))
	if err != nil {
		// Cannot happen for these fixed-size seeds: the chance that no bump
		// in 255..1 gives an off-curve point is about 2^-255.
		panic(err)
	}
	return solana.Pubkey(k)
}
