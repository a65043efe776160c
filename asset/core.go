package asset

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
)

// defaultPubkey is what the reference stores as the authority of an asset
// whose update authority is None.
var defaultPubkey = solana.Pubkey{}

// FromCore renders an MPL Core asset, collection or group. collection is
// the asset's managing collection when the asset's update authority is a
// collection and that collection is indexed; it may be nil, and then the
// authority is "" as the reference renders it. A burnt account without a
// kept live state renders as a bare burnt asset.
func FromCore(id solana.Pubkey, acc *core.CoreAccount, collection *core.CoreAccount, opts Options) (*Asset, error) {
	if acc == nil {
		return nil, errors.New("asset: core account is nil")
	}
	if acc.Kind == core.CoreBurnt {
		return burntCore(id), nil
	}

	a := &Asset{
		ID:          id.String(),
		Content:     NewContent(sanitizeChain(acc.Name), "", strings.ReplaceAll(strings.TrimSpace(acc.URI), "\x00", ""), nil),
		Compression: Uncompressed(),
		Grouping:    []Group{},
		Creators:    []Creator{},
		Mutable:     acc.UpdateAuthority.Type != core.CoreUANone,
		Burnt:       acc.Burnt,
		MplCoreInfo: &MplCoreInfo{PluginsJSONVersion: 1},
	}

	// The update authority as the reference resolves it: a collection's
	// authority for collection-managed assets, empty when that collection
	// is unknown, the default key for None.
	var authority string
	switch acc.UpdateAuthority.Type {
	case core.CoreUAAddress:
		authority = acc.UpdateAuthority.Address.String()
	case core.CoreUACollection:
		if collection != nil && collection.Kind == core.CoreCollection {
			authority = collection.UpdateAuthority.Address.String()
		}
	default:
		authority = defaultPubkey.String()
	}
	a.Authorities = []Authority{{Address: authority, Scopes: []string{"full"}}}

	var owner *string
	switch acc.Kind {
	case core.CoreAsset:
		a.Interface = InterfaceMplCoreAsset
		owner = Str(acc.Owner.String())
		a.AssetSigner = Str(core.AssetSignerPDA(id).String())
	case core.CoreCollection:
		a.Interface = InterfaceMplCoreCollection
		owner = Str(authority)
		a.MplCoreInfo.NumMinted = u32p(acc.NumMinted)
		a.MplCoreInfo.CurrentSize = u32p(acc.CurrentSize)
	case core.CoreGroup:
		a.Interface = InterfaceMplCoreGroup
		owner = Str(authority)
	default:
		return nil, fmt.Errorf("asset: unsupported core account kind %s", acc.Kind)
	}

	// Group memberships come first, as the reference lists them before the
	// collection: a group's parent groups, else the Groups plugin's list.
	// They carry no verification of their own, so with
	// showUnverifiedCollections they show as verified like legacy rows.
	for _, k := range coreGroupMemberships(acc) {
		g := Group{GroupKey: "group", GroupValue: Str(k.String())}
		if opts.ShowUnverifiedCollections {
			g.Verified = boolp(true)
		}
		a.Grouping = append(a.Grouping, g)
	}

	if c, ok := acc.CollectionAddress(); ok {
		g := Group{GroupKey: "collection", GroupValue: Str(c.String())}
		// Every Core asset in a collection is verified.
		if opts.ShowUnverifiedCollections {
			g.Verified = boolp(true)
		}
		if opts.ShowCollectionMetadata {
			g.CollectionMetadata = json.RawMessage("{}")
		}
		a.Grouping = append(a.Grouping, g)
	}

	var bp uint16
	if p := acc.Plugin(core.CoreRoyaltiesPlugin); p != nil {
		if r, ok := p.Data.(core.CoreRoyalties); ok {
			bp = r.BasisPoints
			for _, c := range r.Creators {
				// The reference marks every Core creator verified.
				a.Creators = append(a.Creators, Creator{Address: c.Address.String(), Share: c.Percentage, Verified: true})
			}
		}
	}
	a.Royalty = Royalty{RoyaltyModel: "creators", Percent: Percent(uint32(bp)), BasisPoints: uint32(bp)}

	a.Ownership = Ownership{OwnershipModel: OwnershipSingle}
	if owner != nil {
		a.Ownership.Owner = *owner
	}
	if p := acc.Plugin(core.CoreFreezeDelegatePlugin); p != nil {
		if f, ok := p.Data.(core.CoreFrozen); ok {
			a.Ownership.Frozen = f.Frozen
		}
	}
	// The transfer delegate's authority is the asset's delegate.
	if p := acc.Plugin(core.CoreTransferDelegatePlugin); p != nil {
		switch p.Authority.Type {
		case core.CoreAuthOwner:
			a.Ownership.Delegate = owner
		case core.CoreAuthUpdateAuthority:
			a.Ownership.Delegate = Str(authority)
		case core.CoreAuthAddress:
			a.Ownership.Delegate = Str(p.Authority.Address.String())
		}
	}
	a.Ownership.Delegated = a.Ownership.Delegate != nil

	var err error
	if a.Plugins, err = corePluginsJSON(acc.Plugins); err != nil {
		return nil, fmt.Errorf("asset: core %s plugins: %w", id, err)
	}
	if len(acc.UnknownPlugins) > 0 {
		if a.UnknownPlugins, err = coreUnknownPluginsJSON(acc.UnknownPlugins); err != nil {
			return nil, fmt.Errorf("asset: core %s unknown plugins: %w", id, err)
		}
	}
	if a.ExternalPlugins, err = coreExternalJSON(acc.ExternalPlugins, false); err != nil {
		return nil, fmt.Errorf("asset: core %s external plugins: %w", id, err)
	}
	if len(acc.UnknownExternalPlugins) > 0 {
		if a.UnknownExternalPlugins, err = coreExternalJSON(acc.UnknownExternalPlugins, true); err != nil {
			return nil, fmt.Errorf("asset: core %s unknown external plugins: %w", id, err)
		}
	}
	if acc.Kind == core.CoreAsset {
		// The program only lets assets carry an AgentIdentity adapter; the
		// reference checks the kind as well.
		for _, p := range acc.ExternalPlugins {
			if p.Type == core.CoreAgentIdentityAdapter {
				a.IsAgent = true
			}
		}
		if acc.AgentToken != nil {
			a.AgentToken = Str(acc.AgentToken.String())
		}
	}
	return a, nil
}

// coreGroupMemberships lists the groups a Core account belongs to: a
// group's parent_groups, or the Groups plugin of an asset or collection.
func coreGroupMemberships(acc *core.CoreAccount) []solana.Pubkey {
	if acc.Kind == core.CoreGroup {
		if acc.Group == nil {
			return nil
		}
		return acc.Group.ParentGroups
	}
	if p := acc.Plugin(core.CoreGroupsPlugin); p != nil {
		if g, ok := p.Data.(core.CoreGroups); ok {
			return g.Groups
		}
	}
	return nil
}

// burntCore is what is left of a burnt Core asset when no earlier state
// was kept: the reference only flips the burnt flag of its row.
func burntCore(id solana.Pubkey) *Asset {
	return &Asset{
		Interface:       InterfaceMplCoreAsset,
		ID:              id.String(),
		Authorities:     []Authority{},
		Compression:     Uncompressed(),
		Grouping:        []Group{},
		Royalty:         Royalty{RoyaltyModel: "creators"},
		Creators:        []Creator{},
		Ownership:       Ownership{OwnershipModel: OwnershipSingle},
		Burnt:           true,
		Plugins:         json.RawMessage("{}"),
		MplCoreInfo:     &MplCoreInfo{PluginsJSONVersion: 1},
		ExternalPlugins: json.RawMessage("[]"),
	}
}

// sanitizeChain trims and drops NULs as the reference does for on-chain
// names.
func sanitizeChain(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\x00", "")
}

func u32p(v uint32) *uint32 { return &v }
func boolp(v bool) *bool    { return &v }

// obj is a JSON object under construction; key order does not matter (the
// reference's own order is Postgres jsonb order).
type obj = map[string]any

func authorityJSON(a core.CoreAuthority) obj {
	o := obj{"type": a.Type.String(), "address": nil}
	if a.Type == core.CoreAuthAddress {
		o["address"] = a.Address.String()
	}
	return o
}

func keys(ks []solana.Pubkey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.String()
	}
	return out
}

// corePluginsJSON renders the known plugins as the reference's plugins
// object: snake_case type → {data, index, offset, authority}. A later
// plugin of the same type replaces an earlier one, as in its map.
func corePluginsJSON(ps []core.CorePlugin) (json.RawMessage, error) {
	out := obj{}
	for _, p := range ps {
		data, err := pluginDataJSON(p.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Type, err)
		}
		out[snakeCase(p.Type.String())] = obj{
			"data":      data,
			"index":     p.Index,
			"offset":    p.Offset,
			"authority": authorityJSON(p.Authority),
		}
	}
	return json.Marshal(out)
}

func coreUnknownPluginsJSON(ps []core.CorePlugin) (json.RawMessage, error) {
	out := make([]obj, 0, len(ps))
	for _, p := range ps {
		out = append(out, obj{
			"index":     p.Index,
			"offset":    p.Offset,
			"authority": authorityJSON(p.Authority),
			"type":      uint8(p.Type),
			"data":      base64.StdEncoding.EncodeToString(p.Raw),
		})
	}
	return json.Marshal(out)
}

func pluginDataJSON(d any) (obj, error) {
	switch v := d.(type) {
	case core.CoreRoyalties:
		creators := make([]obj, len(v.Creators))
		for i, c := range v.Creators {
			creators[i] = obj{"address": c.Address.String(), "percentage": c.Percentage}
		}
		var rs any = "None"
		switch v.RuleSet {
		case core.CoreRuleSetProgramAllowList:
			rs = obj{"program_allow_list": keys(v.Programs)}
		case core.CoreRuleSetProgramDenyList:
			rs = obj{"program_deny_list": keys(v.Programs)}
		}
		return obj{"basis_points": v.BasisPoints, "creators": creators, "rule_set": rs}, nil
	case core.CoreFrozen:
		return obj{"frozen": v.Frozen}, nil
	case core.CoreEmpty:
		return obj{}, nil
	case core.CoreUpdateDelegate:
		return obj{"additional_delegates": keys(v.AdditionalDelegates)}, nil
	case core.CoreAttributes:
		list := make([]obj, len(v.List))
		for i, kv := range v.List {
			list[i] = obj{"key": kv.Key, "value": kv.Value}
		}
		return obj{"attribute_list": list}, nil
	case core.CoreEdition:
		return obj{"number": v.Number}, nil
	case core.CoreMasterEdition:
		return obj{"max_supply": v.MaxSupply, "name": v.Name, "uri": v.URI}, nil
	case core.CoreVerifiedCreators:
		sigs := make([]obj, len(v.Signatures))
		for i, s := range v.Signatures {
			sigs[i] = obj{"address": s.Address.String(), "verified": s.Verified}
		}
		return obj{"signatures": sigs}, nil
	case core.CoreAutograph:
		sigs := make([]obj, len(v.Signatures))
		for i, s := range v.Signatures {
			sigs[i] = obj{"address": s.Address.String(), "message": s.Message}
		}
		return obj{"signatures": sigs}, nil
	case core.CoreGroups:
		return obj{"groups": keys(v.Groups)}, nil
	}
	return nil, fmt.Errorf("unexpected plugin data %T", d)
}

var checkEventNames = map[uint8]string{
	core.CoreEventCreate:   "create",
	core.CoreEventTransfer: "transfer",
	core.CoreEventBurn:     "burn",
	core.CoreEventUpdate:   "update",
}

func checkResults(flags uint32) []string {
	out := []string{}
	if flags&core.CoreCanListen != 0 {
		out = append(out, "CanListen")
	}
	if flags&core.CoreCanApprove != 0 {
		out = append(out, "CanApprove")
	}
	if flags&core.CoreCanReject != 0 {
		out = append(out, "CanReject")
	}
	return out
}

// coreExternalJSON renders external plugin adapters as the reference's
// array (known, or unknown with raw adapter bytes).
func coreExternalJSON(ps []core.CoreExternalPlugin, unknown bool) (json.RawMessage, error) {
	out := make([]obj, 0, len(ps))
	for _, p := range ps {
		o := obj{
			"index":     p.Index,
			"offset":    p.Offset,
			"authority": authorityJSON(p.Authority),
		}
		if p.LifecycleChecks != nil {
			known := obj{}
			var other []any
			for _, c := range p.LifecycleChecks {
				res := checkResults(c.Flags)
				if name, ok := checkEventNames[c.Event]; ok {
					// A later entry for the same event replaces the earlier.
					if len(res) == 0 {
						delete(known, name)
					} else {
						known[name] = res
					}
					continue
				}
				other = append(other, []any{c.Event, res})
			}
			if len(known) > 0 {
				o["lifecycle_checks"] = known
			}
			if len(other) > 0 {
				o["unknown_lifecycle_checks"] = other
			}
		}
		if p.DataOffset != nil && p.DataLen != nil {
			o["data_offset"] = *p.DataOffset
			o["data_len"] = *p.DataLen
		}
		if unknown {
			o["type"] = uint8(p.Type)
			o["unknown_adapter_config"] = base64.StdEncoding.EncodeToString(p.Raw)
			if p.DataOffset != nil && p.DataLen != nil {
				o["data"] = base64.StdEncoding.EncodeToString(p.Data)
			}
			out = append(out, o)
			continue
		}
		o["type"] = p.Type.String()
		cfg, err := adapterJSON(p.Adapter)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Type, err)
		}
		o["adapter_config"] = cfg
		if p.DataOffset != nil && p.DataLen != nil {
			o["data"] = externalData(p.Schema(), p.Data)
		}
		out = append(out, o)
	}
	return json.Marshal(out)
}

func extraAccountJSON(e core.CoreExtraAccount) obj {
	flags := func(o obj) obj {
		o["is_signer"] = e.IsSigner
		o["is_writable"] = e.IsWritable
		return o
	}
	switch e.Type {
	case core.CorePreconfiguredProgram:
		return obj{"preconfigured_program": flags(obj{})}
	case core.CorePreconfiguredCollection:
		return obj{"preconfigured_collection": flags(obj{})}
	case core.CorePreconfiguredOwner:
		return obj{"preconfigured_owner": flags(obj{})}
	case core.CorePreconfiguredRecipient:
		return obj{"preconfigured_recipient": flags(obj{})}
	case core.CorePreconfiguredAsset:
		return obj{"preconfigured_asset": flags(obj{})}
	case core.CoreCustomPda:
		seeds := make([]any, len(e.Seeds))
		for i, s := range e.Seeds {
			seeds[i] = seedJSON(s)
		}
		var prog any
		if e.CustomProgramID != nil {
			prog = e.CustomProgramID.String()
		}
		return obj{"custom_pda": flags(obj{"seeds": seeds, "custom_program_id": prog})}
	default:
		return obj{"address": flags(obj{"address": e.Address.String()})}
	}
}

func seedJSON(s core.CoreSeed) any {
	switch s.Type {
	case core.CoreSeedCollection:
		return "Collection"
	case core.CoreSeedOwner:
		return "Owner"
	case core.CoreSeedRecipient:
		return "Recipient"
	case core.CoreSeedAsset:
		return "Asset"
	case core.CoreSeedAddress:
		return obj{"address": s.Address.String()}
	}
	b := make([]int, len(s.Bytes))
	for i, x := range s.Bytes {
		b[i] = int(x)
	}
	return obj{"bytes": b}
}

func adapterJSON(ad any) (obj, error) {
	switch v := ad.(type) {
	case core.CoreLifecycleHook:
		var extra any
		if v.HasExtra {
			l := make([]any, len(v.ExtraAccounts))
			for i, e := range v.ExtraAccounts {
				l[i] = extraAccountJSON(e)
			}
			extra = l
		}
		var da any
		if v.DataAuthority != nil {
			da = authorityJSON(*v.DataAuthority)
		}
		return obj{"hooked_program": v.HookedProgram.String(), "extra_accounts": extra, "data_authority": da, "schema": v.Schema.String()}, nil
	case core.CoreOracle:
		var cfg any
		if v.BaseAddressConfig != nil {
			cfg = extraAccountJSON(*v.BaseAddressConfig)
		}
		var ro any
		switch v.ResultsOffset.Type {
		case 0:
			ro = "NoOffset"
		case 1:
			ro = "Anchor"
		default:
			ro = obj{"custom": v.ResultsOffset.Custom}
		}
		return obj{"base_address": v.BaseAddress.String(), "base_address_config": cfg, "results_offset": ro}, nil
	case core.CoreAppData:
		return obj{"data_authority": authorityJSON(v.DataAuthority), "schema": v.Schema.String()}, nil
	case core.CoreDataSection:
		var pk obj
		if v.ParentKey.Type == 0 {
			pk = obj{"linked_lifecycle_hook": v.ParentKey.Program.String()}
		} else {
			pk = obj{"linked_app_data": authorityJSON(v.ParentKey.Authority)}
		}
		return obj{"parent_key": pk, "schema": v.Schema.String()}, nil
	case core.CoreAgentIdentity:
		return obj{"uri": v.URI}, nil
	}
	return nil, fmt.Errorf("unexpected adapter %T", ad)
}
