// Package coretest encodes MPL Core assets and collections as the Core
// program stores them, the inverse of package core's decoder for the
// plugins written here, for tests and generated benchmark data.
package coretest

import (
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// MPL Core account keys and enum variants written here.
const (
	keyAsset          = 1
	keyPluginHeader   = 3
	keyPluginRegistry = 4
	keyCollection     = 5

	uaAddress    = 1
	uaCollection = 2

	authOwner           = 1
	authUpdateAuthority = 2

	pluginRoyalties      = 0
	pluginFreezeDelegate = 1
	pluginAttributes     = 6
)

// Royalty is a royalties creator.
type Royalty struct {
	Address    solana.Pubkey
	Percentage uint8
}

// Attr is one attribute.
type Attr struct{ Key, Value string }

// Plugins are the plugins written on Core assets and collections; a nil or
// empty member is not written.
type Plugins struct {
	Royalties   *RoyaltiesPlugin
	Freeze      *bool // FreezeDelegate, owner-managed
	Attributes  []Attr
	HasAttrList bool // write Attributes even when empty
}

// RoyaltiesPlugin is the Royalties plugin with no rule set.
type RoyaltiesPlugin struct {
	BasisPoints uint16
	Creators    []Royalty
}

// AssetSpec is an AssetV1 account.
type AssetSpec struct {
	Owner solana.Pubkey
	// Collection, when set, manages the asset (update authority
	// Collection); otherwise Authority is the update authority address.
	Collection *solana.Pubkey
	Authority  solana.Pubkey
	Name, URI  string
	Plugins    Plugins
}

// CollectionSpec is a CollectionV1 account.
type CollectionSpec struct {
	Authority              solana.Pubkey
	Name, URI              string
	NumMinted, CurrentSize uint32
	Plugins                Plugins
}

// EncodeAsset writes an AssetV1 account with its plugins.
func EncodeAsset(a *AssetSpec) []byte {
	w := &borsh.Writer{B: make([]byte, 0, 256)}
	w.U8(keyAsset)
	w.Pubkey(a.Owner)
	if a.Collection != nil {
		w.U8(uaCollection)
		w.Pubkey(*a.Collection)
	} else {
		w.U8(uaAddress)
		w.Pubkey(a.Authority)
	}
	w.Str(a.Name)
	w.Str(a.URI)
	w.U8(0) // seq: None (not decompressed)
	plugins(w, &a.Plugins)
	return w.B
}

// EncodeCollection writes a CollectionV1 account with its plugins.
func EncodeCollection(c *CollectionSpec) []byte {
	w := &borsh.Writer{B: make([]byte, 0, 192)}
	w.U8(keyCollection)
	w.Pubkey(c.Authority)
	w.Str(c.Name)
	w.Str(c.URI)
	w.U32(c.NumMinted)
	w.U32(c.CurrentSize)
	plugins(w, &c.Plugins)
	return w.B
}

// registryRecord is one internal plugin's registry entry.
type registryRecord struct {
	typ, authority uint8
	offset         uint64
}

// plugins writes the plugin header, each plugin (Borsh Plugin enum) and
// the registry after them, as the Core program lays them out. Nothing is
// written when there are no plugins.
func plugins(w *borsh.Writer, p *Plugins) {
	if p.Royalties == nil && p.Freeze == nil && !p.HasAttrList && len(p.Attributes) == 0 {
		return
	}
	header := len(w.B)
	w.U8(keyPluginHeader)
	w.U64(0) // registry offset, patched below
	var recs []registryRecord
	if r := p.Royalties; r != nil {
		recs = append(recs, registryRecord{pluginRoyalties, authUpdateAuthority, uint64(len(w.B))})
		w.U8(pluginRoyalties)
		w.U16(r.BasisPoints)
		w.U32(uint32(len(r.Creators)))
		for _, c := range r.Creators {
			w.Pubkey(c.Address)
			w.U8(c.Percentage)
		}
		w.U8(0) // rule set: None
	}
	if p.Freeze != nil {
		recs = append(recs, registryRecord{pluginFreezeDelegate, authOwner, uint64(len(w.B))})
		w.U8(pluginFreezeDelegate)
		w.Bool(*p.Freeze)
	}
	if p.HasAttrList || len(p.Attributes) > 0 {
		recs = append(recs, registryRecord{pluginAttributes, authUpdateAuthority, uint64(len(w.B))})
		w.U8(pluginAttributes)
		w.U32(uint32(len(p.Attributes)))
		for _, a := range p.Attributes {
			w.Str(a.Key)
			w.Str(a.Value)
		}
	}
	reg := uint64(len(w.B))
	for i := range 8 {
		w.B[header+1+i] = byte(reg >> (8 * i))
	}
	w.U8(keyPluginRegistry)
	w.U32(uint32(len(recs)))
	for _, r := range recs {
		w.U8(r.typ)
		w.U8(r.authority)
		w.U64(r.offset)
	}
	w.U32(0) // external registry: empty
}
