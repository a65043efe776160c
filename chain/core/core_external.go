package core

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// CoreExternalType is the external plugin adapter type (Borsh enum index).
type CoreExternalType uint8

// External plugin adapter types in on-chain order.
const (
	CoreLifecycleHookAdapter CoreExternalType = iota
	CoreOracleAdapter
	CoreAppDataAdapter
	CoreLinkedLifecycleHookAdapter
	CoreLinkedAppDataAdapter
	CoreDataSectionAdapter
	CoreAgentIdentityAdapter
	coreNumExternalTypes
)

var coreExternalNames = [...]string{
	"LifecycleHook", "Oracle", "AppData", "LinkedLifecycleHook", "LinkedAppData", "DataSection", "AgentIdentity",
}

// Known reports whether this decoder knows the adapter's layout.
func (t CoreExternalType) Known() bool { return t < coreNumExternalTypes }

// String is the program's PascalCase variant name.
func (t CoreExternalType) String() string {
	if t.Known() {
		return coreExternalNames[t]
	}
	return fmt.Sprintf("ExternalPluginAdapterType(%d)", uint8(t))
}

// Lifecycle events an external plugin can hook, in on-chain order.
const (
	CoreEventCreate uint8 = iota
	CoreEventTransfer
	CoreEventBurn
	CoreEventUpdate
)

// Check result flags of an external plugin's lifecycle check.
const (
	CoreCanListen  uint32 = 1 << 0
	CoreCanApprove uint32 = 1 << 1
	CoreCanReject  uint32 = 1 << 2
)

// CoreLifecycleCheck is one (event, check result flags) pair of an
// external registry record.
type CoreLifecycleCheck struct {
	Event uint8
	Flags uint32
}

// CoreSchema is how an external plugin's data is encoded.
type CoreSchema uint8

// Schemas in on-chain order.
const (
	CoreSchemaBinary CoreSchema = iota
	CoreSchemaJSON
	CoreSchemaMsgPack
)

var coreSchemaNames = [...]string{"Binary", "Json", "MsgPack"}

func (s CoreSchema) String() string {
	if int(s) < len(coreSchemaNames) {
		return coreSchemaNames[s]
	}
	return fmt.Sprintf("Schema(%d)", uint8(s))
}

// CoreExternalPlugin is one external plugin adapter. Adapter holds one of
// the Core* adapter types below for a known type; Raw holds the undecoded
// adapter bytes (tag included) for an unknown one. Data is the plugin's
// data area when the registry gives one.
type CoreExternalPlugin struct {
	Type            CoreExternalType
	Index           uint64
	Offset          uint64
	Authority       CoreAuthority
	LifecycleChecks []CoreLifecycleCheck // nil when the record has none
	Adapter         any
	Raw             []byte
	DataOffset      *uint64
	DataLen         *uint64
	Data            []byte
}

// Schema is the data schema of the adapter; Binary for adapters without one.
func (p *CoreExternalPlugin) Schema() CoreSchema {
	switch a := p.Adapter.(type) {
	case CoreLifecycleHook:
		return a.Schema
	case CoreAppData:
		return a.Schema
	case CoreDataSection:
		return a.Schema
	}
	return CoreSchemaBinary
}

// CoreSeedType is a custom PDA seed variant.
type CoreSeedType uint8

// Seed variants in on-chain order.
const (
	CoreSeedCollection CoreSeedType = iota
	CoreSeedOwner
	CoreSeedRecipient
	CoreSeedAsset
	CoreSeedAddress
	CoreSeedBytes
)

// CoreSeed is one seed of a custom PDA extra account.
type CoreSeed struct {
	Type    CoreSeedType
	Address solana.Pubkey
	Bytes   []byte
}

// CoreExtraAccountType is an extra account variant.
type CoreExtraAccountType uint8

// Extra account variants in on-chain order.
const (
	CorePreconfiguredProgram CoreExtraAccountType = iota
	CorePreconfiguredCollection
	CorePreconfiguredOwner
	CorePreconfiguredRecipient
	CorePreconfiguredAsset
	CoreCustomPda
	CoreExtraAddress
)

// CoreExtraAccount is an account a hook or oracle needs.
type CoreExtraAccount struct {
	Type            CoreExtraAccountType
	Seeds           []CoreSeed     // CustomPda
	CustomProgramID *solana.Pubkey // CustomPda
	Address         solana.Pubkey  // Address
	IsSigner        bool
	IsWritable      bool
}

// CoreResultsOffset is where an oracle account's validation result sits.
type CoreResultsOffset struct {
	Type   uint8 // 0 NoOffset, 1 Anchor, 2 Custom
	Custom uint64
}

// CoreLifecycleHook is a LifecycleHook or LinkedLifecycleHook adapter.
type CoreLifecycleHook struct {
	HookedProgram solana.Pubkey
	ExtraAccounts []CoreExtraAccount // nil with HasExtraAccounts false is None
	HasExtra      bool
	DataAuthority *CoreAuthority
	Schema        CoreSchema
}

// CoreOracle is an Oracle adapter.
type CoreOracle struct {
	BaseAddress       solana.Pubkey
	BaseAddressConfig *CoreExtraAccount
	ResultsOffset     CoreResultsOffset
}

// CoreAppData is an AppData or LinkedAppData adapter.
type CoreAppData struct {
	DataAuthority CoreAuthority
	Schema        CoreSchema
}

// CoreLinkedDataKey is the parent of a DataSection.
type CoreLinkedDataKey struct {
	Type      uint8 // 0 LinkedLifecycleHook, 1 LinkedAppData
	Program   solana.Pubkey
	Authority CoreAuthority
}

// CoreDataSection is a DataSection adapter: an asset's share of a
// collection's linked plugin.
type CoreDataSection struct {
	ParentKey CoreLinkedDataKey
	Schema    CoreSchema
}

// CoreAgentIdentity is the AgentIdentity adapter (type 6; mpl-core
// plugins/external/agent_identity.rs): the asset is registered as an agent
// described by the registration document at URI. Only assets may carry it.
// The agent token is not here but in the Agent Identity record.
type CoreAgentIdentity struct{ URI string }

func addExternal(a *CoreAccount, index uint64, rec registryRecord, slice, account []byte) error {
	p := CoreExternalPlugin{
		Type:       CoreExternalType(rec.pluginType),
		Index:      index,
		Offset:     rec.offset,
		Authority:  rec.authority,
		DataOffset: rec.dataOffset,
		DataLen:    rec.dataLen,
	}
	if rec.hasChecks {
		p.LifecycleChecks = rec.checks
		if p.LifecycleChecks == nil {
			p.LifecycleChecks = []CoreLifecycleCheck{}
		}
	}
	// Data is read only when both offset and length are given, as the
	// reference does.
	if rec.dataOffset != nil && rec.dataLen != nil {
		off, n := *rec.dataOffset, *rec.dataLen
		end := off + n
		if end < off || end > uint64(len(account)) {
			return fmt.Errorf("%w: data [%d, +%d) beyond %d bytes", borsh.ErrShort, off, n, len(account))
		}
		p.Data = account[off:end]
	} else {
		p.DataOffset, p.DataLen = nil, nil
	}
	if !p.Type.Known() {
		p.Raw = slice
		a.UnknownExternalPlugins = append(a.UnknownExternalPlugins, p)
		return nil
	}
	var err error
	if p.Adapter, err = decodeAdapter(borsh.NewReader(slice, 0)); err != nil {
		return err
	}
	a.ExternalPlugins = append(a.ExternalPlugins, p)
	return nil
}

func decodeAdapter(r *borsh.Reader) (any, error) {
	tag, err := r.U8()
	if err != nil {
		return nil, err
	}
	switch CoreExternalType(tag) {
	case CoreLifecycleHookAdapter, CoreLinkedLifecycleHookAdapter:
		return decodeLifecycleHook(r)
	case CoreOracleAdapter:
		var o CoreOracle
		if o.BaseAddress, err = r.Pubkey(); err != nil {
			return nil, err
		}
		some, err := r.Option()
		if err != nil {
			return nil, err
		}
		if some {
			ea, err := decodeExtraAccount(r)
			if err != nil {
				return nil, err
			}
			o.BaseAddressConfig = &ea
		}
		if o.ResultsOffset.Type, err = r.U8(); err != nil {
			return nil, err
		}
		switch o.ResultsOffset.Type {
		case 0, 1:
		case 2:
			if o.ResultsOffset.Custom, err = r.U64(); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("das: invalid results offset variant %d", o.ResultsOffset.Type)
		}
		return o, nil
	case CoreAppDataAdapter, CoreLinkedAppDataAdapter:
		var d CoreAppData
		if d.DataAuthority, err = authority(r); err != nil {
			return nil, err
		}
		if d.Schema, err = schema(r); err != nil {
			return nil, err
		}
		return d, nil
	case CoreDataSectionAdapter:
		var d CoreDataSection
		if d.ParentKey.Type, err = r.U8(); err != nil {
			return nil, err
		}
		switch d.ParentKey.Type {
		case 0:
			if d.ParentKey.Program, err = r.Pubkey(); err != nil {
				return nil, err
			}
		case 1:
			if d.ParentKey.Authority, err = authority(r); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("das: invalid linked data key variant %d", d.ParentKey.Type)
		}
		if d.Schema, err = schema(r); err != nil {
			return nil, err
		}
		return d, nil
	case CoreAgentIdentityAdapter:
		uri, err := r.Str()
		return CoreAgentIdentity{URI: uri}, err
	}
	return nil, fmt.Errorf("das: invalid external plugin adapter variant %d", tag)
}

func schema(r *borsh.Reader) (CoreSchema, error) {
	v, err := r.U8()
	if err != nil {
		return 0, err
	}
	if v > uint8(CoreSchemaMsgPack) {
		return 0, fmt.Errorf("das: invalid schema %d", v)
	}
	return CoreSchema(v), nil
}

func decodeLifecycleHook(r *borsh.Reader) (CoreLifecycleHook, error) {
	var h CoreLifecycleHook
	var err error
	if h.HookedProgram, err = r.Pubkey(); err != nil {
		return h, err
	}
	if h.HasExtra, err = r.Option(); err != nil {
		return h, err
	}
	if h.HasExtra {
		n, err := vecLen(r, 3)
		if err != nil {
			return h, err
		}
		h.ExtraAccounts = make([]CoreExtraAccount, n)
		for i := range h.ExtraAccounts {
			if h.ExtraAccounts[i], err = decodeExtraAccount(r); err != nil {
				return h, err
			}
		}
	}
	some, err := r.Option()
	if err != nil {
		return h, err
	}
	if some {
		a, err := authority(r)
		if err != nil {
			return h, err
		}
		h.DataAuthority = &a
	}
	if h.Schema, err = schema(r); err != nil {
		return h, err
	}
	return h, nil
}

func decodeExtraAccount(r *borsh.Reader) (CoreExtraAccount, error) {
	var e CoreExtraAccount
	tag, err := r.U8()
	if err != nil {
		return e, err
	}
	e.Type = CoreExtraAccountType(tag)
	switch e.Type {
	case CorePreconfiguredProgram, CorePreconfiguredCollection, CorePreconfiguredOwner,
		CorePreconfiguredRecipient, CorePreconfiguredAsset:
	case CoreCustomPda:
		n, err := vecLen(r, 1)
		if err != nil {
			return e, err
		}
		e.Seeds = make([]CoreSeed, n)
		for i := range e.Seeds {
			if e.Seeds[i], err = decodeSeed(r); err != nil {
				return e, err
			}
		}
		some, err := r.Option()
		if err != nil {
			return e, err
		}
		if some {
			k, err := r.Pubkey()
			if err != nil {
				return e, err
			}
			e.CustomProgramID = &k
		}
	case CoreExtraAddress:
		if e.Address, err = r.Pubkey(); err != nil {
			return e, err
		}
	default:
		return e, fmt.Errorf("das: invalid extra account variant %d", tag)
	}
	if e.IsSigner, err = r.Bool(); err != nil {
		return e, err
	}
	if e.IsWritable, err = r.Bool(); err != nil {
		return e, err
	}
	return e, nil
}

func decodeSeed(r *borsh.Reader) (CoreSeed, error) {
	var s CoreSeed
	tag, err := r.U8()
	if err != nil {
		return s, err
	}
	s.Type = CoreSeedType(tag)
	switch s.Type {
	case CoreSeedCollection, CoreSeedOwner, CoreSeedRecipient, CoreSeedAsset:
	case CoreSeedAddress:
		if s.Address, err = r.Pubkey(); err != nil {
			return s, err
		}
	case CoreSeedBytes:
		n, err := vecLen(r, 1)
		if err != nil {
			return s, err
		}
		b, err := r.Take(n)
		if err != nil {
			return s, err
		}
		s.Bytes = b
	default:
		return s, fmt.Errorf("das: invalid seed variant %d", tag)
	}
	return s, nil
}
