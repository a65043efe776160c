// Package bubblegum decodes Bubblegum (compressed NFT) instructions, V1 and
// V2 leaves alike, together with the account-compression changelog and the
// leaf-schema events that the noop programs carry for them, into Events.
//
// An Event is self-contained: the store keeps every event of an asset and
// FoldCNFT rebuilds the asset from the whole set at request time, so the
// answer does not depend on the order in which transactions were indexed.
package bubblegum

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/internal/b58"
)

// Key is a 32-byte public key or hash. It reads and writes as base58 in
// JSON, so stored payloads stay readable and compare with RPC output.
type Key [32]byte

// String is the base58 form.
func (k Key) String() string { return b58.Encode(k[:]) }

// IsZero reports whether every byte is zero.
func (k Key) IsZero() bool { return k == Key{} }

// MarshalText encodes k as base58.
func (k Key) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes base58 of exactly 32 bytes.
func (k *Key) UnmarshalText(b []byte) error {
	p, err := base58.Decode(string(b))
	if err != nil {
		return fmt.Errorf("bubblegum: key %q: %w", b, err)
	}
	if len(p) != len(k) {
		return fmt.Errorf("bubblegum: key %q: %d bytes, want 32", b, len(p))
	}
	copy(k[:], p)
	return nil
}

// Creator is one entry of a metadata creator array.
type Creator struct {
	Address  Key   `json:"address"`
	Verified bool  `json:"verified"`
	Share    uint8 `json:"share"`
}

// Collection is the V1 metadata collection (V2 carries only the key, and
// it is always verified).
type Collection struct {
	Verified bool `json:"verified"`
	Key      Key  `json:"key"`
}

// Uses is the V1 metadata uses member.
type Uses struct {
	UseMethod uint8  `json:"use_method"` // 0 burn, 1 multiple, 2 single
	Remaining uint64 `json:"remaining"`
	Total     uint64 `json:"total"`
}

// Metadata is MetadataArgs (V1) or MetadataArgsV2, normalised to one shape.
// For V2, EditionNonce, Uses and TokenProgramVersion are absent and
// Collection, when present, is verified.
type Metadata struct {
	Version              uint8       `json:"version"` // 1 or 2: which layout was decoded
	Name                 string      `json:"name"`
	Symbol               string      `json:"symbol"`
	URI                  string      `json:"uri"`
	SellerFeeBasisPoints uint16      `json:"seller_fee_basis_points"`
	PrimarySaleHappened  bool        `json:"primary_sale_happened"`
	IsMutable            bool        `json:"is_mutable"`
	EditionNonce         *uint8      `json:"edition_nonce,omitempty"`
	TokenStandard        *uint8      `json:"token_standard,omitempty"`
	Collection           *Collection `json:"collection,omitempty"`
	Uses                 *Uses       `json:"uses,omitempty"`
	TokenProgramVersion  *uint8      `json:"token_program_version,omitempty"`
	Creators             []Creator   `json:"creators"`
}

// UpdateArgs is the update_metadata(_v2) argument: nil members keep the
// current value.
type UpdateArgs struct {
	Name                 *string    `json:"name,omitempty"`
	Symbol               *string    `json:"symbol,omitempty"`
	URI                  *string    `json:"uri,omitempty"`
	Creators             *[]Creator `json:"creators,omitempty"`
	SellerFeeBasisPoints *uint16    `json:"seller_fee_basis_points,omitempty"`
	PrimarySaleHappened  *bool      `json:"primary_sale_happened,omitempty"`
	IsMutable            *bool      `json:"is_mutable,omitempty"`
}

// LeafArgs are the leaf-proof arguments most instructions take to name the
// leaf they replace. Members an instruction does not take stay nil.
type LeafArgs struct {
	Root           *Key    `json:"root,omitempty"`
	DataHash       *Key    `json:"data_hash,omitempty"`
	CreatorHash    *Key    `json:"creator_hash,omitempty"`
	CollectionHash *Key    `json:"collection_hash,omitempty"`
	AssetDataHash  *Key    `json:"asset_data_hash,omitempty"`
	Flags          *uint8  `json:"flags,omitempty"`
	Nonce          *uint64 `json:"nonce,omitempty"`
	Index          *uint32 `json:"index,omitempty"`
}

// PathNode is one node of a changelog path, leaf first.
type PathNode struct {
	Node  Key    `json:"node"`
	Index uint32 `json:"index"`
}

// ChangeLog is the account-compression ChangeLogEventV1 of a tree update.
type ChangeLog struct {
	Tree  Key        `json:"tree"`
	Path  []PathNode `json:"path"`
	Seq   uint64     `json:"seq"`
	Index uint32     `json:"index"`
}

// Leaf is Bubblegum's LeafSchemaEvent: the leaf as it is after the
// instruction. Version 2 leaves carry CollectionHash, AssetDataHash and
// Flags; they are nil for version 1.
type Leaf struct {
	Version        uint8  `json:"version"` // 1 or 2
	ID             Key    `json:"id"`
	Owner          Key    `json:"owner"`
	Delegate       Key    `json:"delegate"`
	Nonce          uint64 `json:"nonce"`
	DataHash       Key    `json:"data_hash"`
	CreatorHash    Key    `json:"creator_hash"`
	CollectionHash *Key   `json:"collection_hash,omitempty"`
	AssetDataHash  *Key   `json:"asset_data_hash,omitempty"`
	Flags          *uint8 `json:"flags,omitempty"`
	LeafHash       Key    `json:"leaf_hash"`
}

// Leaf flags of V2 leaves (mpl-bubblegum's Flags bitfield).
const (
	FlagAssetFrozen     uint8 = 1 << 0 // frozen by owner or delegate
	FlagPermanentFrozen uint8 = 1 << 1 // frozen by the collection's permanent freeze delegate
	FlagNonTransferable uint8 = 1 << 2 // soulbound
)

// Event is one Bubblegum instruction of one transaction with everything
// needed to apply it later: where it sits, what it names and what the
// noop programs logged for it.
type Event struct {
	AssetID Key `json:"asset_id"`
	Tree    Key `json:"tree"`
	// LeafID is the leaf's nonce (for all instructions but mints it is the
	// changelog index, which equals the nonce).
	LeafID uint64 `json:"leaf_id"`
	// Seq is the tree's changelog sequence number; 0 when the instruction
	// did not change the tree (decompress_v1).
	Seq       uint64 `json:"seq"`
	Slot      uint64 `json:"slot"`
	Signature string `json:"signature"`
	// Instruction is the Anchor instruction name, e.g. "mint_v1".
	Instruction string `json:"instruction"`
	// Outer is the index of the top-level instruction; Inner is the index
	// among its inner instructions, -1 when the event is the top-level
	// instruction itself. Together with Signature they identify the event.
	Outer int `json:"outer"`
	Inner int `json:"inner"`
	// Accounts names the instruction's accounts (IDL names). Optional
	// accounts left out (passed as the Bubblegum program id) are absent.
	Accounts map[string]Key `json:"accounts,omitempty"`

	Args     *LeafArgs   `json:"args,omitempty"`
	Metadata *Metadata   `json:"metadata,omitempty"` // mint message, current metadata, decompress metadata
	Update   *UpdateArgs `json:"update,omitempty"`
	// Collection is set_and_verify_collection's collection argument.
	Collection      *Key   `json:"collection,omitempty"`
	AssetData       []byte `json:"asset_data,omitempty"`
	AssetDataSchema *uint8 `json:"asset_data_schema,omitempty"`

	ChangeLog *ChangeLog `json:"change_log,omitempty"`
	Leaf      *Leaf      `json:"leaf,omitempty"`
}

// MarshalPayload encodes the event as the JSON stored in the payload
// column of bubblegum_events. The payload holds the whole event, so
// UnmarshalEvent(payload) alone restores it.
func (e *Event) MarshalPayload() ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("bubblegum: encode event %s/%d/%d: %w", e.Signature, e.Outer, e.Inner, err)
	}
	return b, nil
}

// UnmarshalEvent decodes a payload written by MarshalPayload.
func UnmarshalEvent(b []byte) (*Event, error) {
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("bubblegum: decode event: %w", err)
	}
	if e.Signature == "" || e.Instruction == "" {
		return nil, fmt.Errorf("bubblegum: decode event: no signature or instruction")
	}
	return &e, nil
}

// Account returns the named account, if the instruction names it.
func (e *Event) Account(name string) (Key, bool) {
	k, ok := e.Accounts[name]
	return k, ok
}
