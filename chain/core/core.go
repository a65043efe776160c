package core

import (
	"errors"
	"fmt"
	"sort"

	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// coreProgram is the MPL Core program id.
var coreProgram = solana.MustParsePubkey("CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d")

// CoreProgram returns the MPL Core program id.
func CoreProgram() solana.Pubkey { return coreProgram }

// AssetSignerPDA is the Core asset's signer PDA, seeds ["mpl-core-execute",
// asset] under the Core program: the address the Execute instruction signs
// for.
func AssetSignerPDA(asset solana.Pubkey) solana.Pubkey {
	k, _, err := sgo.FindProgramAddress([][]byte{[]byte("mpl-core-execute"), asset[:]}, sgo.PublicKey(coreProgram))
	if err != nil {
		// Unreachable for fixed-size seeds (probability ~2^-255).
		panic(err)
	}
	return solana.Pubkey(k)
}

// Core account keys (the first byte of every Core account).
const (
	CoreKeyUninitialized    = 0
	CoreKeyAssetV1          = 1
	CoreKeyHashedAssetV1    = 2
	CoreKeyPluginHeaderV1   = 3
	CoreKeyPluginRegistryV1 = 4
	CoreKeyCollectionV1     = 5
	CoreKeyGroupV1          = 6
)

// ErrCoreUnsupported reports a Core account kind that is not indexed
// (hashed/compressed assets, stray header or registry accounts).
var ErrCoreUnsupported = errors.New("das: unsupported MPL Core account")

// CoreKind is what a Core account holds.
type CoreKind uint8

// Core account kinds.
const (
	// CoreBurnt is a closed asset or collection: Core leaves one
	// Uninitialized byte (or nothing) behind when it burns.
	CoreBurnt CoreKind = iota
	CoreAsset
	CoreCollection
	CoreGroup
)

func (k CoreKind) String() string {
	switch k {
	case CoreBurnt:
		return "burnt"
	case CoreAsset:
		return "asset"
	case CoreCollection:
		return "collection"
	case CoreGroup:
		return "group"
	}
	return fmt.Sprintf("CoreKind(%d)", uint8(k))
}

// CoreUpdateAuthorityType is the variant of an asset's update authority.
type CoreUpdateAuthorityType uint8

// Update authority variants in on-chain order.
const (
	CoreUANone CoreUpdateAuthorityType = iota
	CoreUAAddress
	CoreUACollection
)

// CoreUpdateAuthority is an asset's update authority: none, an address, or
// the collection that manages it.
type CoreUpdateAuthority struct {
	Type    CoreUpdateAuthorityType
	Address solana.Pubkey
}

// CoreAuthorityType is the variant of a plugin authority.
type CoreAuthorityType uint8

// Plugin authority variants in on-chain order.
const (
	CoreAuthNone CoreAuthorityType = iota
	CoreAuthOwner
	CoreAuthUpdateAuthority
	CoreAuthAddress
)

var coreAuthorityNames = [...]string{"None", "Owner", "UpdateAuthority", "Address"}

func (t CoreAuthorityType) String() string {
	if int(t) < len(coreAuthorityNames) {
		return coreAuthorityNames[t]
	}
	return fmt.Sprintf("Authority(%d)", uint8(t))
}

// CoreAuthority is a plugin authority; Address is set only for CoreAuthAddress.
type CoreAuthority struct {
	Type    CoreAuthorityType
	Address solana.Pubkey
}

// CoreGroupData is the body of a GroupV1 account (mpl-core
// programs/mpl-core/src/state/group.rs): after the key, update authority,
// name and uri come four Vec<Pubkey>. ParentGroups are the groups this
// group belongs to; the others are its direct children.
type CoreGroupData struct {
	Collections  []solana.Pubkey
	Groups       []solana.Pubkey
	ParentGroups []solana.Pubkey
	Assets       []solana.Pubkey
}

// CoreAccount is a decoded MPL Core account: an asset, a collection or a
// group with its plugins, or the remains of a burnt one.
type CoreAccount struct {
	Kind  CoreKind
	Burnt bool // set for CoreBurnt; callers may set it on a kept live state

	Owner           solana.Pubkey // assets only
	UpdateAuthority CoreUpdateAuthority
	Name            string
	URI             string
	Seq             *uint64 // assets only

	// NumMinted and CurrentSize are the collection counters.
	NumMinted   uint32
	CurrentSize uint32

	Group *CoreGroupData // groups only

	// AgentToken is not part of the Core account: it is the agent token of
	// the asset's Agent Identity record (see DecodeAgentIdentity), for a
	// caller that has that record to set before rendering.
	AgentToken *solana.Pubkey

	// Plugins are the known internal plugins in index order; plugins whose
	// type this decoder does not know are kept raw in UnknownPlugins, the
	// same split for external plugin adapters.
	Plugins                []CorePlugin
	UnknownPlugins         []CorePlugin
	ExternalPlugins        []CoreExternalPlugin
	UnknownExternalPlugins []CoreExternalPlugin
}

// CollectionAddress returns the collection managing an asset, if any: the
// caller must load that collection to render the asset's authority.
func (a *CoreAccount) CollectionAddress() (solana.Pubkey, bool) {
	if a.Kind == CoreAsset && a.UpdateAuthority.Type == CoreUACollection {
		return a.UpdateAuthority.Address, true
	}
	return solana.Pubkey{}, false
}

// Plugin returns the last known plugin of type t (the program allows one
// per type; the reference keeps the last one in a map).
func (a *CoreAccount) Plugin(t CorePluginType) *CorePlugin {
	var p *CorePlugin
	for i := range a.Plugins {
		if a.Plugins[i].Type == t {
			p = &a.Plugins[i]
		}
	}
	return p
}

// DecodeCore decodes an account owned by the MPL Core program. Empty data
// and an Uninitialized key mean the account was burnt.
func DecodeCore(owner solana.Pubkey, data []byte) (*CoreAccount, error) {
	if owner != coreProgram {
		return nil, fmt.Errorf("das: core account owned by %s, not the Core program", owner)
	}
	if len(data) == 0 || data[0] == CoreKeyUninitialized {
		return &CoreAccount{Kind: CoreBurnt, Burnt: true}, nil
	}
	r := borsh.NewReader(data, 0)
	a := &CoreAccount{}
	var err error
	switch data[0] {
	case CoreKeyAssetV1:
		a.Kind = CoreAsset
		err = decodeCoreAssetBase(r, a)
	case CoreKeyCollectionV1:
		a.Kind = CoreCollection
		err = decodeCoreCollectionBase(r, a)
	case CoreKeyGroupV1:
		a.Kind = CoreGroup
		err = decodeCoreGroupBase(r, a)
	default:
		return nil, fmt.Errorf("%w: key %d", ErrCoreUnsupported, data[0])
	}
	if err != nil {
		return nil, fmt.Errorf("das: core %s: %w", a.Kind, err)
	}
	if r.Off != len(data) {
		if err := decodeCorePlugins(data, r.Off, a); err != nil {
			return nil, fmt.Errorf("das: core %s plugins: %w", a.Kind, err)
		}
	}
	return a, nil
}

func decodeCoreAssetBase(r *borsh.Reader, a *CoreAccount) error {
	var err error
	if _, err = r.U8(); err != nil {
		return err
	}
	if a.Owner, err = r.Pubkey(); err != nil {
		return fmt.Errorf("owner: %w", err)
	}
	tag, err := r.U8()
	if err != nil {
		return fmt.Errorf("update authority: %w", err)
	}
	switch CoreUpdateAuthorityType(tag) {
	case CoreUANone:
	case CoreUAAddress, CoreUACollection:
		if a.UpdateAuthority.Address, err = r.Pubkey(); err != nil {
			return fmt.Errorf("update authority: %w", err)
		}
	default:
		return fmt.Errorf("invalid update authority variant %d", tag)
	}
	a.UpdateAuthority.Type = CoreUpdateAuthorityType(tag)
	if a.Name, err = r.Str(); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if a.URI, err = r.Str(); err != nil {
		return fmt.Errorf("uri: %w", err)
	}
	some, err := r.Option()
	if err != nil {
		return fmt.Errorf("seq: %w", err)
	}
	if some {
		v, err := r.U64()
		if err != nil {
			return fmt.Errorf("seq: %w", err)
		}
		a.Seq = &v
	}
	return nil
}

func decodeCoreCollectionBase(r *borsh.Reader, a *CoreAccount) error {
	var err error
	if _, err = r.U8(); err != nil {
		return err
	}
	a.UpdateAuthority.Type = CoreUAAddress
	if a.UpdateAuthority.Address, err = r.Pubkey(); err != nil {
		return fmt.Errorf("update authority: %w", err)
	}
	if a.Name, err = r.Str(); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if a.URI, err = r.Str(); err != nil {
		return fmt.Errorf("uri: %w", err)
	}
	if a.NumMinted, err = r.U32(); err != nil {
		return fmt.Errorf("num_minted: %w", err)
	}
	if a.CurrentSize, err = r.U32(); err != nil {
		return fmt.Errorf("current_size: %w", err)
	}
	return nil
}

func decodeCoreGroupBase(r *borsh.Reader, a *CoreAccount) error {
	var err error
	if _, err = r.U8(); err != nil {
		return err
	}
	a.UpdateAuthority.Type = CoreUAAddress
	if a.UpdateAuthority.Address, err = r.Pubkey(); err != nil {
		return fmt.Errorf("update authority: %w", err)
	}
	if a.Name, err = r.Str(); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if a.URI, err = r.Str(); err != nil {
		return fmt.Errorf("uri: %w", err)
	}
	g := &CoreGroupData{}
	for _, f := range []struct {
		name string
		dst  *[]solana.Pubkey
	}{{"collections", &g.Collections}, {"groups", &g.Groups}, {"parent_groups", &g.ParentGroups}, {"assets", &g.Assets}} {
		if *f.dst, err = pubkeyVec(r); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	a.Group = g
	return nil
}

// vecLen reads a Borsh Vec length and rejects counts the remaining bytes
// cannot hold, so hostile lengths never drive a huge allocation.
func vecLen(r *borsh.Reader, minElem int) (int, error) {
	n, err := r.U32()
	if err != nil {
		return 0, err
	}
	if minElem > 0 && uint64(n)*uint64(minElem) > uint64(len(r.B)-r.Off) {
		return 0, fmt.Errorf("%w: vec of %d elements at offset %d", borsh.ErrShort, n, r.Off)
	}
	return int(n), nil
}

func pubkeyVec(r *borsh.Reader) ([]solana.Pubkey, error) {
	n, err := vecLen(r, 32)
	if err != nil {
		return nil, err
	}
	out := make([]solana.Pubkey, n)
	for i := range out {
		if out[i], err = r.Pubkey(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func authority(r *borsh.Reader) (CoreAuthority, error) {
	tag, err := r.U8()
	if err != nil {
		return CoreAuthority{}, err
	}
	a := CoreAuthority{Type: CoreAuthorityType(tag)}
	switch a.Type {
	case CoreAuthNone, CoreAuthOwner, CoreAuthUpdateAuthority:
	case CoreAuthAddress:
		if a.Address, err = r.Pubkey(); err != nil {
			return a, err
		}
	default:
		return a, fmt.Errorf("das: invalid authority variant %d at offset %d", tag, r.Off-1)
	}
	return a, nil
}

func optU64(r *borsh.Reader) (*uint64, error) {
	some, err := r.Option()
	if err != nil || !some {
		return nil, err
	}
	v, err := r.U64()
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// registryRecord is one internal or external record of the plugin
// registry, with the type kept as a raw byte so unknown types survive.
type registryRecord struct {
	external   bool
	pluginType uint8
	authority  CoreAuthority
	checks     []CoreLifecycleCheck
	hasChecks  bool
	offset     uint64
	dataOffset *uint64
	dataLen    *uint64
}

// decodeCorePlugins reads the plugin header at base, the registry it points
// to, and every plugin, the way the reference indexer does: records sorted
// by offset, each plugin's bytes running to the next record (or to its data
// for external adapters), index = position in that order.
func decodeCorePlugins(data []byte, base int, a *CoreAccount) error {
	hr := borsh.NewReader(data, base)
	if _, err := hr.U8(); err != nil {
		return fmt.Errorf("plugin header: %w", err)
	}
	regOff, err := hr.U64()
	if err != nil {
		return fmt.Errorf("plugin header: %w", err)
	}
	if regOff > uint64(len(data)) {
		return fmt.Errorf("%w: plugin registry offset %d beyond %d bytes", borsh.ErrShort, regOff, len(data))
	}
	records, err := decodeRegistry(borsh.NewReader(data, int(regOff)))
	if err != nil {
		return fmt.Errorf("plugin registry: %w", err)
	}
	sort.SliceStable(records, func(i, j int) bool { return records[i].offset < records[j].offset })
	for i, rec := range records {
		end := regOff
		if i+1 < len(records) {
			end = records[i+1].offset
		}
		if rec.dataOffset != nil {
			end = *rec.dataOffset
		}
		if rec.offset > end || end > uint64(len(data)) {
			return fmt.Errorf("%w: plugin %d spans [%d, %d) of %d bytes", borsh.ErrShort, i, rec.offset, end, len(data))
		}
		slice := data[rec.offset:end]
		if rec.external {
			if err := addExternal(a, uint64(i), rec, slice, data); err != nil {
				return fmt.Errorf("external plugin %d (type %d): %w", i, rec.pluginType, err)
			}
			continue
		}
		p := CorePlugin{Type: CorePluginType(rec.pluginType), Index: uint64(i), Offset: rec.offset, Authority: rec.authority}
		if !p.Type.Known() {
			p.Raw = slice
			a.UnknownPlugins = append(a.UnknownPlugins, p)
			continue
		}
		if p.Data, err = decodePluginData(borsh.NewReader(slice, 0)); err != nil {
			return fmt.Errorf("plugin %d (%s): %w", i, p.Type, err)
		}
		a.Plugins = append(a.Plugins, p)
	}
	return nil
}

func decodeRegistry(r *borsh.Reader) ([]registryRecord, error) {
	if _, err := r.U8(); err != nil {
		return nil, err
	}
	// A record is at least type + authority + offset = 10 bytes.
	n, err := vecLen(r, 10)
	if err != nil {
		return nil, err
	}
	var out []registryRecord
	for i := 0; i < n; i++ {
		var rec registryRecord
		if rec.pluginType, err = r.U8(); err != nil {
			return nil, err
		}
		if rec.authority, err = authority(r); err != nil {
			return nil, err
		}
		if rec.offset, err = r.U64(); err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	// External: type + authority + checks option + offset + 2 options.
	n, err = vecLen(r, 13)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		rec := registryRecord{external: true}
		if rec.pluginType, err = r.U8(); err != nil {
			return nil, err
		}
		if rec.authority, err = authority(r); err != nil {
			return nil, err
		}
		if rec.hasChecks, err = r.Option(); err != nil {
			return nil, err
		}
		if rec.hasChecks {
			m, err := vecLen(r, 5)
			if err != nil {
				return nil, err
			}
			rec.checks = make([]CoreLifecycleCheck, m)
			for j := range rec.checks {
				if rec.checks[j].Event, err = r.U8(); err != nil {
					return nil, err
				}
				if rec.checks[j].Flags, err = r.U32(); err != nil {
					return nil, err
				}
			}
		}
		if rec.offset, err = r.U64(); err != nil {
			return nil, err
		}
		if rec.dataOffset, err = optU64(r); err != nil {
			return nil, err
		}
		if rec.dataLen, err = optU64(r); err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}
