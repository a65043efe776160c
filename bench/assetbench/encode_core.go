package assetbench

import (
	"github.com/dasch-labs/dasch/chain/solana"
)

// MPL Core account keys and enum variants written here.
const (
	coreKeyAsset          = 1
	coreKeyPluginHeader   = 3
	coreKeyPluginRegistry = 4
	coreKeyCollection     = 5

	coreUAAddress    = 1
	coreUACollection = 2

	coreAuthOwner           = 1
	coreAuthUpdateAuthority = 2

	corePluginRoyalties      = 0
	corePluginFreezeDelegate = 1
	corePluginAttributes     = 6
)

// CoreRoyalty is a royalties creator.
type CoreRoyalty struct {
	Address    solana.Pubkey
	Percentage uint8
}

// CoreAttr is one attribute.
type CoreAttr struct{ Key, Value string }

// CorePlugins are the plugins the generator attaches to Core assets and
// collections; a nil or empty member is not written.
type CorePlugins struct {
	Royalties   *CoreRoyaltiesPlugin
	Freeze      *bool // FreezeDelegate, owner-managed
	Attributes  []CoreAttr
	HasAttrList bool // write Attributes even when empty
}

// CoreRoyaltiesPlugin is the Royalties plugin with no rule set.
type CoreRoyaltiesPlugin struct {
	BasisPoints uint16
	Creators    []CoreRoyalty
}

// CoreAssetSpec is an AssetV1 account.
type CoreAssetSpec struct {
	Owner solana.Pubkey
	// Collection, when set, manages the asset (update authority
	// Collection); otherwise Authority is the update authority address.
	Collection *solana.Pubkey
	Authority  solana.Pubkey
	Name, URI  string
	Plugins    CorePlugins
}

// CoreCollectionSpec is a CollectionV1 account.
type CoreCollectionSpec struct {
	Authority              solana.Pubkey
	Name, URI              string
	NumMinted, CurrentSize uint32
	Plugins                CorePlugins
}

// EncodeCoreAsset writes an AssetV1 account with its plugins.
func EncodeCoreAsset(a *CoreAssetSpec) []byte {
	e := &enc{b: make([]byte, 0, 256)}
	e.u8(coreKeyAsset)
	e.key(a.Owner)
	if a.Collection != nil {
		e.u8(coreUACollection)
		e.key(*a.Collection)
	} else {
		e.u8(coreUAAddress)
		e.key(a.Authority)
	}
	e.str(a.Name)
	e.str(a.URI)
	e.u8(0) // seq: None (not decompressed)
	e.plugins(&a.Plugins)
	return e.b
}

// EncodeCoreCollection writes a CollectionV1 account with its plugins.
func EncodeCoreCollection(c *CoreCollectionSpec) []byte {
	e := &enc{b: make([]byte, 0, 192)}
	e.u8(coreKeyCollection)
	e.key(c.Authority)
	e.str(c.Name)
	e.str(c.URI)
	e.u32(c.NumMinted)
	e.u32(c.CurrentSize)
	e.plugins(&c.Plugins)
	return e.b
}

// registryRecord is one internal plugin's registry entry.
type registryRecord struct {
	typ, authority uint8
	offset         uint64
}

// plugins writes the plugin header, each plugin (Borsh Plugin enum) and
// the registry after them, as the Core program lays them out. Nothing is
// written when there are no plugins.
func (e *enc) plugins(p *CorePlugins) {
	if p.Royalties == nil && p.Freeze == nil && !p.HasAttrList && len(p.Attributes) == 0 {
		return
	}
	header := len(e.b)
	e.u8(coreKeyPluginHeader)
	e.u64(0) // registry offset, patched below
	var recs []registryRecord
	if r := p.Royalties; r != nil {
		recs = append(recs, registryRecord{corePluginRoyalties, coreAuthUpdateAuthority, uint64(len(e.b))})
		e.u8(corePluginRoyalties)
		e.u16(r.BasisPoints)
		e.u32(uint32(len(r.Creators)))
		for _, c := range r.Creators {
			e.key(c.Address)
			e.u8(c.Percentage)
		}
		e.u8(0) // rule set: None
	}
	if p.Freeze != nil {
		recs = append(recs, registryRecord{corePluginFreezeDelegate, coreAuthOwner, uint64(len(e.b))})
		e.u8(corePluginFreezeDelegate)
		e.boolean(*p.Freeze)
	}
	if p.HasAttrList || len(p.Attributes) > 0 {
		recs = append(recs, registryRecord{corePluginAttributes, coreAuthUpdateAuthority, uint64(len(e.b))})
		e.u8(corePluginAttributes)
		e.u32(uint32(len(p.Attributes)))
		for _, a := range p.Attributes {
			e.str(a.Key)
			e.str(a.Value)
		}
	}
	reg := uint64(len(e.b))
	for i := range 8 {
		e.b[header+1+i] = byte(reg >> (8 * i))
	}
	e.u8(coreKeyPluginRegistry)
	e.u32(uint32(len(recs)))
	for _, r := range recs {
		e.u8(r.typ)
		e.u8(r.authority)
		e.u64(r.offset)
	}
	e.u32(0) // external registry: empty
}
