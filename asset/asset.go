// Package asset is the DAS Asset document and its assembly from on-chain
// state: Token Metadata NFTs and fungibles (SPL Token and Token-2022), MPL
// Core assets and collections, and Bubblegum compressed NFTs. Render
// decodes the stored rows of the requested assets (State, as
// query/assetrows loads them) and builds their documents; the From*
// functions build one from decoded state. It does no I/O of its own:
// Render reads through the LoadFunc it is given. The API encodes what it
// returns.
//
// Member order follows the DAS specification (and the reference
// implementation's output), so answers read the same as other providers'.
package asset

import (
	"github.com/goccy/go-json"
)

// Interface values of the spec.
const (
	InterfaceV1NFT             = "V1_NFT"
	InterfaceV1Print           = "V1_PRINT"
	InterfaceLegacyNFT         = "LEGACY_NFT"
	InterfaceV2NFT             = "V2_NFT"
	InterfaceFungibleAsset     = "FungibleAsset"
	InterfaceFungibleToken     = "FungibleToken"
	InterfaceCustom            = "Custom"
	InterfaceIdentity          = "Identity"
	InterfaceExecutable        = "Executable"
	InterfaceProgrammableNFT   = "ProgrammableNFT"
	InterfaceMplCoreAsset      = "MplCoreAsset"
	InterfaceMplCoreCollection = "MplCoreCollection"
	InterfaceMplCoreGroup      = "MplCoreGroup"
	InterfaceMplBubblegumV2    = "MplBubblegumV2"
)

// SchemaURL is content.$schema for every asset.
const SchemaURL = "https://schema.metaplex.com/nft1.0.json"

// Asset is one answer of getAsset.
type Asset struct {
	// LastIndexedSlot is filled by the API: everything up to it is indexed.
	LastIndexedSlot *uint64      `json:"last_indexed_slot,omitempty"`
	Interface       string       `json:"interface"`
	ID              string       `json:"id"`
	Content         *Content     `json:"content,omitempty"`
	Authorities     []Authority  `json:"authorities"`
	Compression     Compression  `json:"compression"`
	Grouping        []Group      `json:"grouping"`
	Royalty         Royalty      `json:"royalty"`
	Creators        []Creator    `json:"creators"`
	Ownership       Ownership    `json:"ownership"`
	Uses            *Uses        `json:"uses,omitempty"`
	Supply          *Supply      `json:"supply,omitempty"`
	Mutable         bool         `json:"mutable"`
	Burnt           bool         `json:"burnt"`
	TokenInfo       *TokenInfo   `json:"token_info,omitempty"`
	MintExtensions  Object       `json:"mint_extensions,omitempty"`
	Inscription     Object       `json:"inscription,omitempty"`
	Spl20           Object       `json:"spl20,omitempty"`
	Plugins         Object       `json:"plugins,omitempty"`
	UnknownPlugins  Object       `json:"unknown_plugins,omitempty"`
	MplCoreInfo     *MplCoreInfo `json:"mpl_core_info,omitempty"`
	// ExternalPlugins is a JSON array for Core assets and collections
	// (possibly empty), absent for every other kind.
	ExternalPlugins        json.RawMessage `json:"external_plugins,omitempty"`
	UnknownExternalPlugins json.RawMessage `json:"unknown_external_plugins,omitempty"`
	// IsAgent and AgentToken describe a Core asset registered as an agent;
	// omitted when it is not one.
	IsAgent     bool    `json:"is_agent,omitempty"`
	AgentToken  *string `json:"agent_token,omitempty"`
	AssetSigner *string `json:"asset_signer,omitempty"`
}

// Object is a JSON object whose members depend on on-chain data (plugins,
// extensions). It is kept as encoded JSON; nil is omitted.
type Object = json.RawMessage

// Content is the asset's metadata. Files and Links stay empty until
// off-chain JSON is fetched (ApplyJSON); Metadata then gains its members.
// Category is the document's properties.category, when it is a string.
type Content struct {
	Schema   string         `json:"$schema"`
	JSONURI  string         `json:"json_uri"`
	Files    []File         `json:"files"`
	Metadata Metadata       `json:"metadata"`
	Links    map[string]any `json:"links"`
	Category string         `json:"category,omitempty"`
}

// File is one entry of content.files.
type File struct {
	URI    string `json:"uri,omitempty"`
	CDNURI string `json:"cdn_uri,omitempty"`
	Mime   string `json:"mime,omitempty"`
}

// Metadata is content.metadata: the on-chain name and symbol, and the
// token standard when the asset has one; the off-chain document's
// attributes and description, as the document has them (any JSON value),
// once it is fetched. Members are in name order, as the reference's map
// encodes them.
type Metadata struct {
	Attributes    json.RawMessage `json:"attributes,omitempty"`
	Description   json.RawMessage `json:"description,omitempty"`
	Name          string          `json:"name"`
	Symbol        string          `json:"symbol"`
	TokenStandard *string         `json:"token_standard,omitempty"`
}

// Authority is one entry of authorities.
type Authority struct {
	Address string   `json:"address"`
	Scopes  []string `json:"scopes"`
}

// Compression describes the asset's leaf in a Bubblegum tree; every field is
// empty or zero for an uncompressed asset. The V2 members are present only
// for Bubblegum V2 leaves.
type Compression struct {
	Eligible       bool    `json:"eligible"`
	Compressed     bool    `json:"compressed"`
	DataHash       string  `json:"data_hash"`
	CreatorHash    string  `json:"creator_hash"`
	CollectionHash *string `json:"collection_hash,omitempty"`
	AssetDataHash  *string `json:"asset_data_hash,omitempty"`
	Flags          *uint8  `json:"flags,omitempty"`
	AssetHash      string  `json:"asset_hash"`
	Tree           string  `json:"tree"`
	Seq            uint64  `json:"seq"`
	LeafID         uint64  `json:"leaf_id"`
}

// Group is one entry of grouping. Verified is shown only when the caller
// asks for unverified collections; CollectionMetadata only with
// showCollectionMetadata.
type Group struct {
	GroupKey           string          `json:"group_key"`
	GroupValue         *string         `json:"group_value"`
	Verified           *bool           `json:"verified,omitempty"`
	CollectionMetadata json.RawMessage `json:"collection_metadata,omitempty"`
}

// Royalty is the asset's royalty. Percent is basis points / 10000.
type Royalty struct {
	RoyaltyModel        string  `json:"royalty_model"`
	Target              *string `json:"target"`
	Percent             float64 `json:"percent"`
	BasisPoints         uint32  `json:"basis_points"`
	PrimarySaleHappened bool    `json:"primary_sale_happened"`
	Locked              bool    `json:"locked"`
}

// Creator is one entry of creators.
type Creator struct {
	Address  string `json:"address"`
	Share    uint8  `json:"share"`
	Verified bool   `json:"verified"`
}

// Ownership models.
const (
	OwnershipSingle = "single"
	OwnershipToken  = "token"
)

// Ownership is who holds the asset. NonTransferable is present only for
// Bubblegum V2 leaves.
type Ownership struct {
	Frozen          bool    `json:"frozen"`
	NonTransferable *bool   `json:"non_transferable,omitempty"`
	Delegated       bool    `json:"delegated"`
	Delegate        *string `json:"delegate"`
	OwnershipModel  string  `json:"ownership_model"`
	Owner           string  `json:"owner"`
}

// Uses is a Token Metadata asset's uses member (use_method is "Burn",
// "Multiple" or "Single").
type Uses struct {
	UseMethod string `json:"use_method"`
	Remaining uint64 `json:"remaining"`
	Total     uint64 `json:"total"`
}

// Supply is the print supply of an NFT.
type Supply struct {
	PrintMaxSupply     *uint64 `json:"print_max_supply"`
	PrintCurrentSupply uint64  `json:"print_current_supply"`
	EditionNonce       *uint8  `json:"edition_nonce"`
}

// TokenInfo is the mint's token data, shown with showFungible.
type TokenInfo struct {
	Supply          uint64  `json:"supply"`
	Decimals        uint8   `json:"decimals"`
	TokenProgram    string  `json:"token_program"`
	MintAuthority   *string `json:"mint_authority,omitempty"`
	FreezeAuthority *string `json:"freeze_authority,omitempty"`
	// Balance and AssociatedTokenAddress are the owner's holding, in a
	// listing of an owner's fungibles (Helius's members).
	Balance                *uint64 `json:"balance,omitempty"`
	AssociatedTokenAddress *string `json:"associated_token_address,omitempty"`
	// PriceInfo is set at read time, never folded (WithPrice).
	PriceInfo *PriceInfo `json:"price_info,omitempty"`
}

// MplCoreInfo carries Core-specific counters: NumMinted and CurrentSize for
// collections.
type MplCoreInfo struct {
	NumMinted          *uint32 `json:"num_minted,omitempty"`
	CurrentSize        *uint32 `json:"current_size,omitempty"`
	PluginsJSONVersion uint32  `json:"plugins_json_version"`
}

// Options are getAsset's display options.
type Options struct {
	ShowUnverifiedCollections bool `json:"showUnverifiedCollections"`
	ShowCollectionMetadata    bool `json:"showCollectionMetadata"`
	ShowFungible              bool `json:"showFungible"`
	ShowInscription           bool `json:"showInscription"`
	ShowZeroBalance           bool `json:"showZeroBalance"`
}

// Percent is basis points as the fraction the spec reports, computed as
// the reference does (bp × 0.0001 in float64) so values compare exactly.
func Percent(basisPoints uint32) float64 { return float64(basisPoints) * 0.0001 }

// NewContent returns content with on-chain name, symbol and uri and the
// empty off-chain parts.
func NewContent(name, symbol, uri string, tokenStandard *string) *Content {
	return &Content{
		Schema:   SchemaURL,
		JSONURI:  uri,
		Files:    []File{},
		Metadata: Metadata{Name: name, Symbol: symbol, TokenStandard: tokenStandard},
		Links:    map[string]any{},
	}
}

// Uncompressed is the compression member of an asset not in a tree.
func Uncompressed() Compression { return Compression{} }

// Str returns a pointer to s, for optional members.
func Str(s string) *string { return &s }
