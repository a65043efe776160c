package core

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/borsh"
)

// The accounts below are encoded by hand from the mpl-core sources:
//   - AssetV1: programs/mpl-core/src/state/asset.rs (key, owner,
//     update_authority enum, name, uri, seq Option<u64>);
//   - GroupV1: programs/mpl-core/src/state/group.rs;
//   - PluginHeaderV1 / PluginRegistryV1 with RegistryRecord and
//     ExternalRegistryRecord: programs/mpl-core/src/plugins/plugin_header.rs
//     and plugin_registry.rs;
//   - Plugin::Groups (type 18): plugins/mod.rs, internal/authority_managed/groups.rs;
//   - ExternalPluginAdapter::AgentIdentity (type 6): external/agent_identity.rs.

func borshStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func borshKeys(b []byte, ks []solana.Pubkey) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ks)))
	for _, k := range ks {
		b = append(b, k[:]...)
	}
	return b
}

// testPlugin is one internal plugin (body = Plugin enum bytes) or external
// adapter (body = ExternalPluginAdapter enum bytes) with its registry
// authority tag (None, Owner or UpdateAuthority).
type testPlugin struct {
	external bool
	typ      uint8
	auth     uint8
	body     []byte
}

// withPlugins appends a plugin header, the plugin bodies and the registry
// to an account base, as the program lays them out.
func withPlugins(base []byte, ps ...testPlugin) []byte {
	b := append([]byte(nil), base...)
	hdr := len(b)
	b = append(b, CoreKeyPluginHeaderV1)
	b = binary.LittleEndian.AppendUint64(b, 0) // registry offset, patched below
	offs := make([]uint64, len(ps))
	for i, p := range ps {
		offs[i] = uint64(len(b))
		b = append(b, p.body...)
	}
	binary.LittleEndian.PutUint64(b[hdr+1:], uint64(len(b)))
	b = append(b, CoreKeyPluginRegistryV1)
	var internal, external [][]byte
	for i, p := range ps {
		rec := []byte{p.typ, p.auth}
		if p.external {
			rec = append(rec, 0) // lifecycle_checks: None
			rec = binary.LittleEndian.AppendUint64(rec, offs[i])
			rec = append(rec, 0, 0) // data_offset, data_len: None
			external = append(external, rec)
			continue
		}
		internal = append(internal, binary.LittleEndian.AppendUint64(rec, offs[i]))
	}
	for _, recs := range [][][]byte{internal, external} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(recs)))
		for _, r := range recs {
			b = append(b, r...)
		}
	}
	return b
}

// coreAssetBase is an AssetV1 base with an address update authority and
// no seq.
func coreAssetBase(owner, ua solana.Pubkey, name string) []byte {
	b := []byte{CoreKeyAssetV1}
	b = append(b, owner[:]...)
	b = append(b, byte(CoreUAAddress))
	b = append(b, ua[:]...)
	b = borshStr(b, name)
	b = borshStr(b, "https://example.com/asset.json")
	return append(b, 0)
}

func groupsPluginBody(ks ...solana.Pubkey) []byte {
	return borshKeys([]byte{byte(CoreGroupsPlugin)}, ks)
}

func TestDecodeCoreGroupsAndAgentIdentity(t *testing.T) {
	owner := pk(t, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7")
	g1 := pk(t, "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ")
	g2 := pk(t, "Aw7KSaeRECbjLW7BYTUtMwGkaiAGhxrQxdLnpLYRnmbB")
	const uri = "https://example.com/agent.json"
	data := withPlugins(coreAssetBase(owner, owner, "Agent"),
		testPlugin{typ: uint8(CoreGroupsPlugin), auth: uint8(CoreAuthUpdateAuthority), body: groupsPluginBody(g1, g2)},
		testPlugin{external: true, typ: uint8(CoreAgentIdentityAdapter), auth: uint8(CoreAuthUpdateAuthority),
			body: borshStr([]byte{byte(CoreAgentIdentityAdapter)}, uri)},
	)
	c, err := DecodeCore(CoreProgram(), data)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Plugin(CoreGroupsPlugin)
	if p == nil || p.Index != 0 || p.Authority.Type != CoreAuthUpdateAuthority {
		t.Fatalf("groups plugin = %+v", p)
	}
	g, ok := p.Data.(CoreGroups)
	if !ok || len(g.Groups) != 2 || g.Groups[0] != g1 || g.Groups[1] != g2 {
		t.Errorf("groups data = %+v", p.Data)
	}
	if len(c.ExternalPlugins) != 1 || len(c.UnknownExternalPlugins) != 0 {
		t.Fatalf("external %d unknown %d", len(c.ExternalPlugins), len(c.UnknownExternalPlugins))
	}
	e := c.ExternalPlugins[0]
	if e.Type != CoreAgentIdentityAdapter || e.Index != 1 || e.LifecycleChecks != nil || e.DataOffset != nil {
		t.Errorf("agent identity record = %+v", e)
	}
	if ai, ok := e.Adapter.(CoreAgentIdentity); !ok || ai.URI != uri {
		t.Errorf("agent identity adapter = %+v", e.Adapter)
	}
	if e.Type.String() != "AgentIdentity" || p.Type.String() != "Groups" {
		t.Errorf("names %q %q", e.Type, p.Type)
	}

	// A group's plugins sit after its four vectors, as on assets.
	parent := pk(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	gd := withPlugins(coreGroupBytes(owner, "G", []solana.Pubkey{g1}, []solana.Pubkey{g2}, []solana.Pubkey{parent}, nil),
		testPlugin{typ: uint8(CoreAttributesPlugin), auth: uint8(CoreAuthUpdateAuthority), body: []byte{byte(CoreAttributesPlugin), 0, 0, 0, 0}})
	gc, err := DecodeCore(CoreProgram(), gd)
	if err != nil {
		t.Fatal(err)
	}
	if gc.Kind != CoreGroup || len(gc.Group.ParentGroups) != 1 || gc.Group.ParentGroups[0] != parent ||
		len(gc.Group.Groups) != 1 || gc.Group.Groups[0] != g2 || len(gc.Plugins) != 1 || gc.Plugins[0].Type != CoreAttributesPlugin {
		t.Errorf("group with plugins = %+v %+v", gc, gc.Group)
	}
}

func TestDecodeCoreGroupsPluginErrors(t *testing.T) {
	owner := pk(t, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7")
	base := coreAssetBase(owner, owner, "A")
	tests := []struct {
		name string
		body []byte
	}{
		// A count the plugin's bytes cannot hold.
		{"groups count too large", binary.LittleEndian.AppendUint32([]byte{byte(CoreGroupsPlugin)}, 1000)},
		{"groups key cut", append(binary.LittleEndian.AppendUint32([]byte{byte(CoreGroupsPlugin)}, 1), 1, 2, 3)},
		{"agent uri cut", binary.LittleEndian.AppendUint32([]byte{byte(CoreAgentIdentityAdapter)}, 40)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testPlugin{typ: tc.body[0], auth: uint8(CoreAuthOwner), body: tc.body}
			p.external = tc.body[0] == byte(CoreAgentIdentityAdapter)
			c, err := DecodeCore(CoreProgram(), withPlugins(base, p))
			if err == nil {
				t.Fatalf("decoded %+v, want an error", c)
			}
			if !errors.Is(err, borsh.ErrShort) {
				t.Errorf("err = %v, want borsh.ErrShort", err)
			}
		})
	}
}

// agentIdentityBytes encodes an identity record as mpl-agent
// programs/mpl-agent-identity/src/state/agent_identity_v1.rs and _v2.rs lay
// it out: key, bump, 6 padding bytes, asset, then for V2 the agent token
// (zero for none) and 32 reserved bytes.
func agentIdentityBytes(key uint8, asset solana.Pubkey, token *solana.Pubkey) []byte {
	b := []byte{key, 254, 0, 0, 0, 0, 0, 0}
	b = append(b, asset[:]...)
	if key == AgentIdentityKeyV2 {
		var tok solana.Pubkey
		if token != nil {
			tok = *token
		}
		b = append(b, tok[:]...)
		b = append(b, make([]byte, 32)...)
	}
	return b
}

func TestDecodeAgentIdentity(t *testing.T) {
	asset := pk(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	token := pk(t, "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ")
	v2 := agentIdentityBytes(AgentIdentityKeyV2, asset, &token)
	tests := []struct {
		name      string
		owner     solana.Pubkey
		data      []byte
		wantToken *solana.Pubkey
		wantErr   error // nil: decodes; errAny: some error
	}{
		{"v2 with token", AgentIdentityProgram(), v2, &token, nil},
		{"v2 without token", AgentIdentityProgram(), agentIdentityBytes(AgentIdentityKeyV2, asset, nil), nil, nil},
		{"v1", AgentIdentityProgram(), agentIdentityBytes(AgentIdentityKeyV1, asset, nil), nil, nil},
		{"wrong owner", CoreProgram(), v2, nil, errAny},
		{"empty", AgentIdentityProgram(), nil, nil, borsh.ErrShort},
		{"v2 cut", AgentIdentityProgram(), v2[:72], nil, borsh.ErrShort},
		{"v1 cut", AgentIdentityProgram(), agentIdentityBytes(AgentIdentityKeyV1, asset, nil)[:39], nil, borsh.ErrShort},
		{"uninitialized", AgentIdentityProgram(), make([]byte, 104), nil, ErrAgentIdentityUnsupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := DecodeAgentIdentity(tc.owner, tc.data)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("decoded %+v, want an error", id)
				}
				if tc.wantErr != errAny && !errors.Is(err, tc.wantErr) {
					t.Errorf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if id.Asset != asset {
				t.Errorf("asset = %s", id.Asset)
			}
			switch {
			case tc.wantToken == nil && id.AgentToken != nil:
				t.Errorf("token = %s, want none", id.AgentToken)
			case tc.wantToken != nil && (id.AgentToken == nil || *id.AgentToken != *tc.wantToken):
				t.Errorf("token = %v, want %s", id.AgentToken, tc.wantToken)
			}
		})
	}
}

var errAny = errors.New("any error")

func TestAgentIdentityPDA(t *testing.T) {
	a := pk(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	p := AgentIdentityPDA(a)
	if p != AgentIdentityPDA(a) || p == a || p == AssetSignerPDA(a) || p == (solana.Pubkey{}) {
		t.Errorf("identity PDA %s", p)
	}
	if AgentIdentityPDA(pk(t, "Aw7KSaeRECbjLW7BYTUtMwGkaiAGhxrQxdLnpLYRnmbB")) == p {
		t.Error("two assets share an identity PDA")
	}
}

func FuzzDecodeAgentIdentity(f *testing.F) {
	f.Add(agentIdentityBytes(AgentIdentityKeyV2, solana.Pubkey{1}, &solana.Pubkey{2}))
	f.Add(agentIdentityBytes(AgentIdentityKeyV1, solana.Pubkey{1}, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		id, err := DecodeAgentIdentity(AgentIdentityProgram(), data)
		if (err == nil) == (id == nil) {
			t.Fatalf("id %v err %v", id, err)
		}
	})
}
