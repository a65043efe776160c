package asset

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/inscription"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
)

// wrappedSOL has supply 0 (its supply is unbounded) and a metadata account
// without a token standard; the reference special-cases it as fungible.
var wrappedSOL = token.NativeMint().String()

// tokenStandardNames are the Token Metadata token_standard spellings of
// content.metadata.token_standard, indexed by the on-chain value.
var tokenStandardNames = [...]string{
	"NonFungible", "FungibleAsset", "Fungible", "NonFungibleEdition",
	"ProgrammableNonFungible", "ProgrammableNonFungibleEdition",
}

// useMethodNames are the Token Metadata use methods by on-chain value.
var useMethodNames = [...]string{"Burn", "Multiple", "Single"}

// FromToken renders the asset of a Token Metadata mint (NFT, pNFT, edition
// or fungible) or of a Token-2022 mint carrying its own metadata, as the
// reference DAS does. A mint with neither metadata is ErrNotFound; an NFT
// whose mint supply is zero is ErrNoSupply.
func FromToken(src *TokenSources, opts Options) (*Asset, error) {
	if src == nil || src.Mint == nil {
		// Without the mint there is no supply; the reference filters such
		// assets out of every read.
		return nil, fmt.Errorf("token asset: mint not indexed: %w", ErrNotFound)
	}
	id := src.ID.String()
	tm := src.Metadata
	var ext *token.TokenMetadata
	if src.Mint.Program == token.Token2022Program() {
		ext = src.Mint.TokenMetadata
	}
	if tm != nil && tm.Mint != src.ID {
		return nil, fmt.Errorf("token asset %s: metadata belongs to mint %s", id, tm.Mint)
	}
	if tm == nil && ext == nil {
		return nil, fmt.Errorf("token asset %s: no Token Metadata account and no metadata extension: %w", id, ErrNotFound)
	}
	if src.Mint.Supply == 0 && id != wrappedSOL {
		return nil, fmt.Errorf("token asset %s: %w", id, ErrNoSupply)
	}

	iface, model := tokenInterface(id, tm, src.Mint)
	a := &Asset{
		Interface:   iface,
		ID:          id,
		Authorities: []Authority{},
		Compression: Uncompressed(),
		Grouping:    []Group{},
		Royalty:     Royalty{RoyaltyModel: "creators", Percent: Percent(0)},
		Creators:    []Creator{},
		Mutable:     true,
		Burnt:       src.Burnt,
	}
	if tm != nil {
		if err := applyTokenMetadata(a, tm, src.CollectionJSON, opts); err != nil {
			return nil, fmt.Errorf("token asset %s: %w", id, err)
		}
	} else {
		// Token-2022 metadata is stored verbatim: no trimming, no token
		// standard, no royalty, creators or authorities.
		a.Content = NewContent(ext.Name, ext.Symbol, ext.URI, nil)
	}

	a.Ownership = Ownership{OwnershipModel: model}
	if ta := src.TokenAccount; ta != nil && (model == OwnershipSingle || nonFungibleMint(src.Mint)) {
		// The holder shows only where one token account holds the asset;
		// fungible balances have no single owner.
		a.Ownership.Owner = ta.Owner.String()
		a.Ownership.Frozen = ta.State == token.StateFrozen
		if ta.Delegate != nil {
			a.Ownership.Delegated = true
			a.Ownership.Delegate = Str(ta.Delegate.String())
		}
	}

	switch iface {
	case InterfaceV1NFT, InterfaceLegacyNFT, InterfaceV2NFT, InterfaceProgrammableNFT, InterfaceCustom:
		// The reference hard-codes print supplies to 0; Helius reports the
		// master edition's: its prints so far, and its maximum (null for
		// unlimited). dasch follows Helius when the master edition is
		// indexed, and answers 0 as the reference does when it is not.
		zero := uint64(0)
		a.Supply = &Supply{PrintMaxSupply: &zero}
		if me := src.MasterEdition; me != nil {
			a.Supply.PrintMaxSupply = me.MaxSupply
			a.Supply.PrintCurrentSupply = me.Supply
		}
		if tm != nil {
			a.Supply.EditionNonce = tm.EditionNonce
		}
	}

	if opts.ShowFungible {
		a.TokenInfo = tokenInfo(src)
	}
	if src.Mint.Program == token.Token2022Program() {
		me, err := MintExtensionsJSON(src.Mint)
		if err != nil {
			return nil, fmt.Errorf("token asset %s: %w", id, err)
		}
		a.MintExtensions = me
	}
	if opts.ShowInscription && src.Inscription != nil {
		raw, err := InscriptionJSON(src.Inscription)
		if err != nil {
			return nil, fmt.Errorf("token asset %s: %w", id, err)
		}
		a.Inscription = raw
	}
	return a, nil
}

// tokenInterface maps the token standard to the interface and ownership
// model. Without a token standard the mint decides: supply above one is a
// fungible token, else the reference's Custom class with a single owner.
func tokenInterface(id string, tm *metadata.Metadata, mint *token.Mint) (string, string) {
	if id == wrappedSOL {
		return InterfaceFungibleToken, OwnershipToken
	}
	if tm == nil {
		// A mint known only from its Token-2022 metadata is assumed fungible.
		return InterfaceFungibleToken, OwnershipToken
	}
	if tm.TokenStandard == nil {
		if mint.Supply > 1 {
			return InterfaceFungibleToken, OwnershipToken
		}
		return InterfaceCustom, OwnershipSingle
	}
	switch *tm.TokenStandard {
	case metadata.NonFungible, metadata.NonFungibleEdition:
		return InterfaceV1NFT, OwnershipSingle
	case metadata.ProgrammableNonFungible, metadata.ProgrammableNonFungibleEdition:
		return InterfaceProgrammableNFT, OwnershipSingle
	case metadata.FungibleAsset:
		return InterfaceFungibleAsset, OwnershipToken
	case metadata.Fungible:
		return InterfaceFungibleToken, OwnershipToken
	}
	return InterfaceCustom, OwnershipSingle
}

// nonFungibleMint is the reference's test for a mint whose token accounts
// set the asset's holder.
func nonFungibleMint(m *token.Mint) bool { return m.Supply == 1 && m.Decimals == 0 }

// sanitize trims the text the reference stores for names and symbols.
func sanitize(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\x00", "") }

func applyTokenMetadata(a *Asset, tm *metadata.Metadata, collectionJSON []byte, opts Options) error {
	var ts *string
	if tm.TokenStandard != nil && int(*tm.TokenStandard) < len(tokenStandardNames) {
		ts = Str(tokenStandardNames[*tm.TokenStandard])
	}
	a.Content = NewContent(sanitize(tm.Name), sanitize(tm.Symbol), sanitize(tm.URI), ts)
	a.Authorities = []Authority{{Address: tm.UpdateAuthority.String(), Scopes: []string{"full"}}}
	a.Royalty.BasisPoints = uint32(tm.SellerFeeBasisPoints)
	a.Royalty.Percent = Percent(a.Royalty.BasisPoints)
	a.Royalty.PrimarySaleHappened = tm.PrimarySaleHappened
	a.Mutable = tm.IsMutable
	for _, c := range tm.Creators {
		a.Creators = append(a.Creators, Creator{Address: c.Address.String(), Share: c.Share, Verified: c.Verified})
	}
	if c := tm.Collection; c != nil && (c.Verified || opts.ShowUnverifiedCollections) {
		g := Group{GroupKey: "collection", GroupValue: Str(c.Key.String())}
		if opts.ShowUnverifiedCollections {
			v := c.Verified
			g.Verified = &v
		}
		if opts.ShowCollectionMetadata {
			cm, err := CollectionMetadata(collectionJSON)
			if err != nil {
				return err
			}
			g.CollectionMetadata = cm
		}
		a.Grouping = append(a.Grouping, g)
	}
	if u := tm.Uses; u != nil && int(u.UseMethod) < len(useMethodNames) {
		a.Uses = &Uses{UseMethod: useMethodNames[u.UseMethod], Remaining: u.Remaining, Total: u.Total}
	}
	return nil
}

// CollectionMetadata picks the members the reference shows from the
// collection's off-chain JSON; {} when it is not indexed or not an object.
func CollectionMetadata(raw []byte) (json.RawMessage, error) {
	var doc map[string]json.RawMessage
	if len(raw) > 0 {
		// Off-chain JSON is arbitrary: anything but an object shows as {}.
		if err := json.Unmarshal(raw, &doc); err != nil {
			doc = nil
		}
	}
	out := map[string]json.RawMessage{}
	for _, k := range []string{"name", "symbol", "image", "external_url", "description"} {
		if v, ok := doc[k]; ok && string(v) != "null" {
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("collection metadata: %w", err)
	}
	return b, nil
}

func tokenInfo(src *TokenSources) *TokenInfo {
	m := src.Mint
	prog := src.MintProgram
	if prog == (solana.Pubkey{}) {
		prog = m.Program
	}
	ti := &TokenInfo{Supply: m.Supply, Decimals: m.Decimals, TokenProgram: prog.String()}
	if m.MintAuthority != nil {
		ti.MintAuthority = Str(m.MintAuthority.String())
	}
	if m.FreezeAuthority != nil {
		ti.FreezeAuthority = Str(m.FreezeAuthority.String())
	}
	return ti
}

// inscriptionJSON is the inscription member, in the reference's order.
type inscriptionJSON struct {
	Authority       string  `json:"authority"`
	Root            string  `json:"root"`
	InscriptionData string  `json:"inscription_data"`
	Content         string  `json:"content"`
	Encoding        string  `json:"encoding"`
	Order           uint64  `json:"order"`
	Size            uint32  `json:"size"`
	ValidationHash  *string `json:"validation_hash"`
}

// InscriptionJSON renders an inscription account as the inscription member.
func InscriptionJSON(in *inscription.Inscription) (Object, error) {
	b, err := json.Marshal(inscriptionJSON{
		Authority:       in.Authority.String(),
		Root:            in.Root.String(),
		InscriptionData: in.InscriptionData.String(),
		Content:         in.ContentType,
		Encoding:        in.Encoding,
		Order:           in.Order,
		Size:            in.Size,
		ValidationHash:  in.ValidationHash,
	})
	if err != nil {
		return nil, fmt.Errorf("inscription: %w", err)
	}
	return b, nil
}
