package core

import (
	"fmt"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// CorePluginType is the internal plugin type (its Borsh enum index).
type CorePluginType uint8

// Internal plugin types in on-chain order.
const (
	CoreRoyaltiesPlugin CorePluginType = iota
	CoreFreezeDelegatePlugin
	CoreBurnDelegatePlugin
	CoreTransferDelegatePlugin
	CoreUpdateDelegatePlugin
	CorePermanentFreezeDelegatePlugin
	CoreAttributesPlugin
	CorePermanentTransferDelegatePlugin
	CorePermanentBurnDelegatePlugin
	CoreEditionPlugin
	CoreMasterEditionPlugin
	CoreAddBlockerPlugin
	CoreImmutableMetadataPlugin
	CoreVerifiedCreatorsPlugin
	CoreAutographPlugin
	CoreBubblegumV2Plugin
	CoreFreezeExecutePlugin
	CorePermanentFreezeExecutePlugin
	CoreGroupsPlugin
	coreNumPluginTypes
)

var corePluginNames = [...]string{
	"Royalties", "FreezeDelegate", "BurnDelegate", "TransferDelegate", "UpdateDelegate",
	"PermanentFreezeDelegate", "Attributes", "PermanentTransferDelegate", "PermanentBurnDelegate",
	"Edition", "MasterEdition", "AddBlocker", "ImmutableMetadata", "VerifiedCreators", "Autograph",
	"BubblegumV2", "FreezeExecute", "PermanentFreezeExecute", "Groups",
}

// Known reports whether this decoder knows the plugin's layout.
func (t CorePluginType) Known() bool { return t < coreNumPluginTypes }

// String is the program's PascalCase variant name.
func (t CorePluginType) String() string {
	if t.Known() {
		return corePluginNames[t]
	}
	return fmt.Sprintf("PluginType(%d)", uint8(t))
}

// CorePlugin is one internal plugin. Data holds one of the Core* plugin
// data types below for a known type; Raw holds the undecoded bytes (tag
// included) for an unknown one.
type CorePlugin struct {
	Type      CorePluginType
	Index     uint64
	Offset    uint64
	Authority CoreAuthority
	Data      any
	Raw       []byte
}

// CoreCreator is a royalties creator.
type CoreCreator struct {
	Address    solana.Pubkey
	Percentage uint8
}

// CoreRuleSetType is the royalties rule set variant.
type CoreRuleSetType uint8

// Rule set variants in on-chain order.
const (
	CoreRuleSetNone CoreRuleSetType = iota
	CoreRuleSetProgramAllowList
	CoreRuleSetProgramDenyList
)

// CoreRoyalties is the Royalties plugin.
type CoreRoyalties struct {
	BasisPoints uint16
	Creators    []CoreCreator
	RuleSet     CoreRuleSetType
	Programs    []solana.Pubkey // the allow or deny list
}

// CoreFrozen is the body of FreezeDelegate, PermanentFreezeDelegate,
// FreezeExecute and PermanentFreezeExecute.
type CoreFrozen struct{ Frozen bool }

// CoreEmpty is the body of plugins without fields (burn and transfer
// delegates, AddBlocker, ImmutableMetadata, BubblegumV2).
type CoreEmpty struct{}

// CoreUpdateDelegate is the UpdateDelegate plugin.
type CoreUpdateDelegate struct{ AdditionalDelegates []solana.Pubkey }

// CoreAttribute is one key/value of the Attributes plugin.
type CoreAttribute struct{ Key, Value string }

// CoreAttributes is the Attributes plugin.
type CoreAttributes struct{ List []CoreAttribute }

// CoreEdition is the Edition plugin.
type CoreEdition struct{ Number uint32 }

// CoreMasterEdition is the MasterEdition plugin.
type CoreMasterEdition struct {
	MaxSupply *uint32
	Name      *string
	URI       *string
}

// CoreVerifiedCreator is one signature of the VerifiedCreators plugin.
type CoreVerifiedCreator struct {
	Address  solana.Pubkey
	Verified bool
}

// CoreVerifiedCreators is the VerifiedCreators plugin.
type CoreVerifiedCreators struct{ Signatures []CoreVerifiedCreator }

// CoreAutographSignature is one signature of the Autograph plugin.
type CoreAutographSignature struct {
	Address solana.Pubkey
	Message string
}

// CoreAutograph is the Autograph plugin.
type CoreAutograph struct{ Signatures []CoreAutographSignature }

// CoreGroups is the Groups plugin (type 18, after PermanentFreezeExecute;
// mpl-core plugins/internal/authority_managed/groups.rs): the parent groups
// a collection or asset belongs to, one Vec<Pubkey>.
type CoreGroups struct{ Groups []solana.Pubkey }

// decodePluginData decodes a Borsh Plugin enum (tag then body). Trailing
// bytes are ignored as Borsh's streaming deserialize does.
func decodePluginData(r *borsh.Reader) (any, error) {
	tag, err := r.U8()
	if err != nil {
		return nil, err
	}
	switch CorePluginType(tag) {
	case CoreRoyaltiesPlugin:
		return decodeRoyalties(r)
	case CoreFreezeDelegatePlugin, CorePermanentFreezeDelegatePlugin, CoreFreezeExecutePlugin, CorePermanentFreezeExecutePlugin:
		v, err := r.Bool()
		return CoreFrozen{Frozen: v}, err
	case CoreBurnDelegatePlugin, CoreTransferDelegatePlugin, CorePermanentTransferDelegatePlugin,
		CorePermanentBurnDelegatePlugin, CoreAddBlockerPlugin, CoreImmutableMetadataPlugin, CoreBubblegumV2Plugin:
		return CoreEmpty{}, nil
	case CoreUpdateDelegatePlugin:
		ks, err := pubkeyVec(r)
		return CoreUpdateDelegate{AdditionalDelegates: ks}, err
	case CoreAttributesPlugin:
		n, err := vecLen(r, 8)
		if err != nil {
			return nil, err
		}
		out := CoreAttributes{List: make([]CoreAttribute, n)}
		for i := range out.List {
			if out.List[i].Key, err = r.Str(); err != nil {
				return nil, err
			}
			if out.List[i].Value, err = r.Str(); err != nil {
				return nil, err
			}
		}
		return out, nil
	case CoreEditionPlugin:
		v, err := r.U32()
		return CoreEdition{Number: v}, err
	case CoreMasterEditionPlugin:
		return decodeMasterEdition(r)
	case CoreVerifiedCreatorsPlugin:
		n, err := vecLen(r, 33)
		if err != nil {
			return nil, err
		}
		out := CoreVerifiedCreators{Signatures: make([]CoreVerifiedCreator, n)}
		for i := range out.Signatures {
			if out.Signatures[i].Address, err = r.Pubkey(); err != nil {
				return nil, err
			}
			if out.Signatures[i].Verified, err = r.Bool(); err != nil {
				return nil, err
			}
		}
		return out, nil
	case CoreAutographPlugin:
		n, err := vecLen(r, 36)
		if err != nil {
			return nil, err
		}
		out := CoreAutograph{Signatures: make([]CoreAutographSignature, n)}
		for i := range out.Signatures {
			if out.Signatures[i].Address, err = r.Pubkey(); err != nil {
				return nil, err
			}
			if out.Signatures[i].Message, err = r.Str(); err != nil {
				return nil, err
			}
		}
		return out, nil
	case CoreGroupsPlugin:
		ks, err := pubkeyVec(r)
		return CoreGroups{Groups: ks}, err
	}
	return nil, fmt.Errorf("das: invalid plugin variant %d", tag)
}

func decodeRoyalties(r *borsh.Reader) (CoreRoyalties, error) {
	var out CoreRoyalties
	var err error
	if out.BasisPoints, err = r.U16(); err != nil {
		return out, err
	}
	n, err := vecLen(r, 33)
	if err != nil {
		return out, err
	}
	out.Creators = make([]CoreCreator, n)
	for i := range out.Creators {
		if out.Creators[i].Address, err = r.Pubkey(); err != nil {
			return out, err
		}
		if out.Creators[i].Percentage, err = r.U8(); err != nil {
			return out, err
		}
	}
	tag, err := r.U8()
	if err != nil {
		return out, err
	}
	out.RuleSet = CoreRuleSetType(tag)
	switch out.RuleSet {
	case CoreRuleSetNone:
	case CoreRuleSetProgramAllowList, CoreRuleSetProgramDenyList:
		if out.Programs, err = pubkeyVec(r); err != nil {
			return out, err
		}
	default:
		return out, fmt.Errorf("das: invalid rule set variant %d", tag)
	}
	return out, nil
}

func decodeMasterEdition(r *borsh.Reader) (CoreMasterEdition, error) {
	var out CoreMasterEdition
	some, err := r.Option()
	if err != nil {
		return out, err
	}
	if some {
		v, err := r.U32()
		if err != nil {
			return out, err
		}
		out.MaxSupply = &v
	}
	for _, dst := range []**string{&out.Name, &out.URI} {
		some, err := r.Option()
		if err != nil {
			return out, err
		}
		if some {
			s, err := r.Str()
			if err != nil {
				return out, err
			}
			*dst = &s
		}
	}
	return out, nil
}
