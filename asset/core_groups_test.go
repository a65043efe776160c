package asset

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
)

// The accounts in these tests are encoded by hand from the mpl-core sources
// and decoded by core.DecodeCore before rendering:
//   - AssetV1 / CollectionV1: programs/mpl-core/src/state/asset.rs and
//     collection.rs;
//   - GroupV1 (key 6): programs/mpl-core/src/state/group.rs;
//   - PluginHeaderV1 / PluginRegistryV1: plugins/plugin_header.rs and
//     plugin_registry.rs;
//   - Plugin::Groups (type 18): plugins/mod.rs and
//     plugins/internal/authority_managed/groups.rs;
//   - ExternalPluginAdapter::AgentIdentity (type 6): plugins/external/agent_identity.rs.
// The agent token is the Agent Identity record's (mpl-agent
// programs/mpl-agent-identity/src/state/agent_identity_v2.rs).

type coreEnc struct{ b []byte }

func (e *coreEnc) u8(v ...byte) *coreEnc { e.b = append(e.b, v...); return e }
func (e *coreEnc) u32(v uint32) *coreEnc {
	e.b = binary.LittleEndian.AppendUint32(e.b, v)
	return e
}
func (e *coreEnc) u64(v uint64) *coreEnc {
	e.b = binary.LittleEndian.AppendUint64(e.b, v)
	return e
}
func (e *coreEnc) key(k solana.Pubkey) *coreEnc { return e.u8(k[:]...) }
func (e *coreEnc) str(s string) *coreEnc        { return e.u32(uint32(len(s))).u8([]byte(s)...) }
func (e *coreEnc) keys(ks ...solana.Pubkey) *coreEnc {
	e.u32(uint32(len(ks)))
	for _, k := range ks {
		e.key(k)
	}
	return e
}

// corePlugin is one registry entry: an internal plugin or an external
// adapter, with a one-byte authority (None, Owner, UpdateAuthority).
type corePlugin struct {
	external bool
	typ      byte
	auth     byte
	body     []byte
}

// withCorePlugins appends the plugin header, plugin bodies and registry.
func withCorePlugins(base []byte, ps ...corePlugin) []byte {
	e := &coreEnc{b: append([]byte(nil), base...)}
	hdr := len(e.b)
	e.u8(core.CoreKeyPluginHeaderV1).u64(0)
	offs := make([]uint64, len(ps))
	for i, p := range ps {
		offs[i] = uint64(len(e.b))
		e.u8(p.body...)
	}
	binary.LittleEndian.PutUint64(e.b[hdr+1:], uint64(len(e.b)))
	e.u8(core.CoreKeyPluginRegistryV1)
	for _, external := range []bool{false, true} {
		n := 0
		for _, p := range ps {
			if p.external == external {
				n++
			}
		}
		e.u32(uint32(n))
		for i, p := range ps {
			if p.external != external {
				continue
			}
			e.u8(p.typ, p.auth)
			if external {
				e.u8(0) // lifecycle_checks: None
			}
			e.u64(offs[i])
			if external {
				e.u8(0, 0) // data_offset, data_len: None
			}
		}
	}
	return e.b
}

func groupsPlugin(ks ...solana.Pubkey) corePlugin {
	body := (&coreEnc{}).u8(byte(core.CoreGroupsPlugin)).keys(ks...).b
	return corePlugin{typ: byte(core.CoreGroupsPlugin), auth: byte(core.CoreAuthUpdateAuthority), body: body}
}

func agentIdentityPlugin(uri string) corePlugin {
	body := (&coreEnc{}).u8(byte(core.CoreAgentIdentityAdapter)).str(uri).b
	return corePlugin{external: true, typ: byte(core.CoreAgentIdentityAdapter), auth: byte(core.CoreAuthUpdateAuthority), body: body}
}

func decodeCoreBytes(t *testing.T, data []byte) *core.CoreAccount {
	t.Helper()
	c, err := core.DecodeCore(core.CoreProgram(), data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFromCoreGroupsAndAgentToken(t *testing.T) {
	var (
		ua    = mustKey(t, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7")
		owner = mustKey(t, "Aw7KSaeRECbjLW7BYTUtMwGkaiAGhxrQxdLnpLYRnmbB")
		coll  = mustKey(t, "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ")
		g1    = mustKey(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
		g2    = mustKey(t, "AejY8LGKAbQsrGZS1qgN4uFu99dJD3f8Js9Yrt7K3tCc")
		child = mustKey(t, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
		token = mustKey(t, "So11111111111111111111111111111111111111112")
		id    = mustKey(t, "CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d")
	)
	const uri = "https://example.com/a.json"

	// GroupV1: key, update authority, name, uri, collections, groups,
	// parent_groups, assets.
	group := (&coreEnc{}).u8(core.CoreKeyGroupV1).key(ua).str("Group").str(uri).
		keys(coll).keys(child).keys(g1, g2).keys(child).b
	// AssetV1: key, owner, update authority Collection(coll), name, uri,
	// seq None.
	assetBase := (&coreEnc{}).u8(core.CoreKeyAssetV1).key(owner).u8(byte(core.CoreUACollection)).key(coll).
		str("Agent").str(uri).u8(0).b
	// CollectionV1: key, update authority, name, uri, num_minted,
	// current_size.
	collection := (&coreEnc{}).u8(core.CoreKeyCollectionV1).key(ua).str("Coll").str(uri).u32(3).u32(2).b

	agent := decodeCoreBytes(t, withCorePlugins(assetBase, groupsPlugin(g1, g2), agentIdentityPlugin("https://example.com/agent.json")))
	agent.AgentToken = &token
	// The same asset before any token was set.
	agentNoToken := decodeCoreBytes(t, withCorePlugins(assetBase, groupsPlugin(g1, g2), agentIdentityPlugin("https://example.com/agent.json")))
	// Not an agent: neither is_agent nor agent_token is rendered.
	member := decodeCoreBytes(t, withCorePlugins(assetBase, groupsPlugin(g1)))
	collAcc := decodeCoreBytes(t, withCorePlugins(collection, groupsPlugin(g2)))
	// A token on a non-asset is ignored: only assets are agents.
	collWithToken := decodeCoreBytes(t, withCorePlugins(collection, groupsPlugin(g2)))
	collWithToken.AgentToken = &token

	// want is the whole rendered asset: the members every Core account has,
	// then the ones under test.
	want := func(iface, name, owner, grouping, plugins, info, external, extra string) string {
		return `{"interface":"` + iface + `","id":"` + id.String() + `",` +
			`"content":{"$schema":"https://schema.metaplex.com/nft1.0.json","json_uri":"` + uri + `","files":[],"metadata":{"name":"` + name + `","symbol":""},"links":{}},` +
			`"authorities":[{"address":"` + ua.String() + `","scopes":["full"]}],` +
			`"compression":{"eligible":false,"compressed":false,"data_hash":"","creator_hash":"","asset_hash":"","tree":"","seq":0,"leaf_id":0},` +
			`"grouping":[` + grouping + `],` +
			`"royalty":{"royalty_model":"creators","target":null,"percent":0,"basis_points":0,"primary_sale_happened":false,"locked":false},` +
			`"creators":[],` +
			`"ownership":{"frozen":false,"delegated":false,"delegate":null,"ownership_model":"single","owner":"` + owner + `"},` +
			`"mutable":true,"burnt":false,"plugins":{` + plugins + `},"mpl_core_info":{` + info + `"plugins_json_version":1},` +
			`"external_plugins":[` + external + `]` + extra + `}`
	}
	entry := func(key, value string, verified bool) string {
		if verified {
			return `{"group_key":"` + key + `","group_value":"` + value + `","verified":true}`
		}
		return `{"group_key":"` + key + `","group_value":"` + value + `"}`
	}
	groupsPluginJSON := func(offset string, ks ...solana.Pubkey) string {
		return `"groups":{"authority":{"address":null,"type":"UpdateAuthority"},"data":{"groups":["` +
			strings.Join(keys(ks), `","`) + `"]},"index":0,"offset":` + offset + `}`
	}
	const agentExternal = `{"adapter_config":{"uri":"https://example.com/agent.json"},"authority":{"address":null,"type":"UpdateAuthority"},"index":1,"offset":184,"type":"AgentIdentity"}`
	agentExtra := `,"is_agent":true,"agent_token":"` + token.String() + `","asset_signer":"` + core.AssetSignerPDA(id).String() + `"`
	const collInfo = `"num_minted":3,"current_size":2,`

	tests := []struct {
		name       string
		acc        *core.CoreAccount
		collection *core.CoreAccount
		opts       Options
		want       string
	}{
		// A group's memberships are its parent_groups; its children are
		// not rendered. No signer, no agent members.
		{"group", decodeCoreBytes(t, group), nil, Options{},
			want(InterfaceMplCoreGroup, "Group", ua.String(), entry("group", g1.String(), false)+","+entry("group", g2.String(), false), "", "", "", "")},
		{"group verified", decodeCoreBytes(t, group), nil, Options{ShowUnverifiedCollections: true},
			want(InterfaceMplCoreGroup, "Group", ua.String(), entry("group", g1.String(), true)+","+entry("group", g2.String(), true), "", "", "", "")},
		// Groups plugin memberships precede the collection.
		{"agent in groups and collection", agent, decodeCoreBytes(t, collection), Options{ShowUnverifiedCollections: true},
			want(InterfaceMplCoreAsset, "Agent", owner.String(),
				entry("group", g1.String(), true)+","+entry("group", g2.String(), true)+","+entry("collection", coll.String(), true),
				groupsPluginJSON("115", g1, g2), "", agentExternal, agentExtra)},
		{"agent default options", agent, decodeCoreBytes(t, collection), Options{},
			want(InterfaceMplCoreAsset, "Agent", owner.String(),
				entry("group", g1.String(), false)+","+entry("group", g2.String(), false)+","+entry("collection", coll.String(), false),
				groupsPluginJSON("115", g1, g2), "", agentExternal, agentExtra)},
		{"agent without token", agentNoToken, decodeCoreBytes(t, collection), Options{},
			want(InterfaceMplCoreAsset, "Agent", owner.String(),
				entry("group", g1.String(), false)+","+entry("group", g2.String(), false)+","+entry("collection", coll.String(), false),
				groupsPluginJSON("115", g1, g2), "", agentExternal, `,"is_agent":true,"asset_signer":"`+core.AssetSignerPDA(id).String()+`"`)},
		{"group member, not an agent", member, decodeCoreBytes(t, collection), Options{},
			want(InterfaceMplCoreAsset, "Agent", owner.String(),
				entry("group", g1.String(), false)+","+entry("collection", coll.String(), false),
				groupsPluginJSON("115", g1), "", "", `,"asset_signer":"`+core.AssetSignerPDA(id).String()+`"`)},
		{"collection in a group", collAcc, nil, Options{},
			want(InterfaceMplCoreCollection, "Coll", ua.String(), entry("group", g2.String(), false), groupsPluginJSON("88", g2), collInfo, "", "")},
		// Only assets are agents: a token on a collection is not rendered.
		{"collection ignores token", collWithToken, nil, Options{},
			want(InterfaceMplCoreCollection, "Coll", ua.String(), entry("group", g2.String(), false), groupsPluginJSON("88", g2), collInfo, "", "")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := FromCore(id, tc.acc, tc.collection, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := jsonEqual(got, []byte(tc.want)); err != nil {
				t.Errorf("%v\ngot %s", err, got)
			}
		})
	}
}
