package core

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/internal/borsh"
	"github.com/dasch-labs/dasch/internal/fixture"
)

// coreFixtures holds the MPL Core accounts copied from the DAS corpus.
const coreFixtures = "../testdata/das/core/accounts"

func loadCore(t testing.TB, dir, pubkey string) *solana.Account {
	t.Helper()
	return fixture.Account(t, coreFixtures, dir, pubkey)
}

func pk(t testing.TB, s string) solana.Pubkey { return fixture.Pubkey(t, s) }

func TestDecodeCoreFixtures(t *testing.T) {
	tests := []struct {
		dir, pubkey  string
		kind         CoreKind
		owner        string
		ua           CoreUpdateAuthorityType
		uaAddr       string
		name         string
		plugins      []CorePluginType
		external     []CoreExternalType
		numMinted    uint32
		firstOffset  uint64
		externalData string
	}{
		{"mpl_core_get_asset", "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr", CoreAsset,
			"APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7", CoreUACollection, "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ", "Test Asset",
			[]CorePluginType{CoreRoyaltiesPlugin, CoreFreezeDelegatePlugin, CoreTransferDelegatePlugin}, nil, 0, 119, ""},
		{"mpl_core_get_collection", "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ", CoreCollection,
			"", CoreUAAddress, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7", "Test Collection",
			[]CorePluginType{CoreUpdateDelegatePlugin}, nil, 1, 103, ""},
		{"mpl_core_get_collection_with_bubblegum_v2_plugin", "5SW7HyPZx2vsVnA2vxxzAMZi51Tkc5v2LkXTxzx8ULAm", CoreCollection,
			"", CoreUAAddress, "gvBpr3GF6BqNBYHsuv8bscJjQ8RMe2DF2AgDHSBXJmU", "Test Collection",
			[]CorePluginType{CoreBubblegumV2Plugin, CorePermanentBurnDelegatePlugin}, nil, 1, 108, ""},
		{"mpl_core_get_asset_with_multiple_internal_and_external_plugins", "Aw7KSaeRECbjLW7BYTUtMwGkaiAGhxrQxdLnpLYRnmbB", CoreAsset,
			"APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7", CoreUAAddress, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7", "Test Asset",
			[]CorePluginType{CoreTransferDelegatePlugin, CoreRoyaltiesPlugin, CoreFreezeDelegatePlugin},
			[]CoreExternalType{CoreOracleAdapter, CoreOracleAdapter}, 0, 119, ""},
		{"mpl_core_get_asset_with_app_data_with_json_data_and_update_authority_is_data_authority", "39XrhcVGuyq4HwTarxMCwDEMFtPBY5Nctxrvpvpdpe3g", CoreAsset,
			"HKwwF4sPVYFPgqEgxth4GZRZjJ9o4E3wA8eu2QM5Vt3H", CoreUAAddress, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7", "Test Asset",
			nil, []CoreExternalType{CoreAppDataAdapter}, 0, 0, `{"message":"Hello","target":"world"}`},
		{"mpl_core_get_asset_with_data_section_with_binary_data", "BVjK8uvqUuH5YU6ThX6A7gznx2xi8BxshawbuFe1Y5Vr", CoreAsset,
			"HKwwF4sPVYFPgqEgxth4GZRZjJ9o4E3wA8eu2QM5Vt3H", CoreUACollection, "41thppJ4z9HnBNbFMLnztXS7seqBptYV1jG8UhxR4vK8", "Test Asset",
			nil, []CoreExternalType{CoreDataSectionAdapter}, 0, 0, "Hello, world!"},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			a := loadCore(t, tc.dir, tc.pubkey)
			c, err := DecodeCore(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tc.kind || c.Name != tc.name {
				t.Errorf("kind %s name %q, want %s %q", c.Kind, c.Name, tc.kind, tc.name)
			}
			if tc.owner != "" && c.Owner.String() != tc.owner {
				t.Errorf("owner %s, want %s", c.Owner, tc.owner)
			}
			if c.UpdateAuthority.Type != tc.ua || c.UpdateAuthority.Address.String() != tc.uaAddr {
				t.Errorf("update authority %+v, want %d %s", c.UpdateAuthority, tc.ua, tc.uaAddr)
			}
			if c.NumMinted != tc.numMinted {
				t.Errorf("num_minted %d, want %d", c.NumMinted, tc.numMinted)
			}
			if len(c.Plugins) != len(tc.plugins) {
				t.Fatalf("%d plugins, want %d", len(c.Plugins), len(tc.plugins))
			}
			for i, p := range c.Plugins {
				if p.Type != tc.plugins[i] {
					t.Errorf("plugin %d is %s, want %s", i, p.Type, tc.plugins[i])
				}
			}
			if len(c.Plugins) > 0 && c.Plugins[0].Offset != tc.firstOffset {
				t.Errorf("first plugin offset %d, want %d", c.Plugins[0].Offset, tc.firstOffset)
			}
			if len(c.ExternalPlugins) != len(tc.external) {
				t.Fatalf("%d external plugins, want %d", len(c.ExternalPlugins), len(tc.external))
			}
			for i, p := range c.ExternalPlugins {
				if p.Type != tc.external[i] {
					t.Errorf("external %d is %s, want %s", i, p.Type, tc.external[i])
				}
			}
			if tc.externalData != "" && string(c.ExternalPlugins[0].Data) != tc.externalData {
				t.Errorf("external data %q, want %q", c.ExternalPlugins[0].Data, tc.externalData)
			}
			if len(c.UnknownPlugins)+len(c.UnknownExternalPlugins) != 0 {
				t.Errorf("unexpected unknown plugins: %+v %+v", c.UnknownPlugins, c.UnknownExternalPlugins)
			}
		})
	}
}

func TestDecodeCoreRoyaltiesRuleSet(t *testing.T) {
	a := loadCore(t, "mpl_core_get_asset_with_pubkey_in_rule_set", "8H71x9Bhh9E9o3MZK4QnVC5MRFn1WZRf2Mc9w2wEbG5V")
	c, err := DecodeCore(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Plugin(CoreRoyaltiesPlugin)
	if p == nil {
		t.Fatal("no royalties plugin")
	}
	r := p.Data.(CoreRoyalties)
	if r.BasisPoints != 500 || r.RuleSet != CoreRuleSetProgramDenyList || len(r.Programs) != 1 ||
		r.Programs[0].String() != "BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY" {
		t.Errorf("royalties = %+v", r)
	}
}

func TestDecodeCoreOracleCustomPda(t *testing.T) {
	a := loadCore(t, "mpl_core_get_assets_by_group_with_oracle_and_custom_pda_all_seeds", "CWJDcrzxSDE7FeNRzMK1aSia7qoaUPrrGQ81E7vkQpq4")
	c, err := DecodeCore(a.Owner, a.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ExternalPlugins) != 1 {
		t.Fatalf("%d external plugins", len(c.ExternalPlugins))
	}
	o := c.ExternalPlugins[0].Adapter.(CoreOracle)
	cfg := o.BaseAddressConfig
	if cfg == nil || cfg.Type != CoreCustomPda || len(cfg.Seeds) != 6 || cfg.Seeds[5].Type != CoreSeedBytes ||
		string(cfg.Seeds[5].Bytes) != "example-seed-bytes" || cfg.CustomProgramID != nil {
		t.Errorf("base address config = %+v", cfg)
	}
	if got := c.ExternalPlugins[0].LifecycleChecks; len(got) != 1 || got[0] != (CoreLifecycleCheck{Event: CoreEventTransfer, Flags: CoreCanReject}) {
		t.Errorf("lifecycle checks = %+v", got)
	}
}

func TestDecodeCoreBurnt(t *testing.T) {
	for _, data := range [][]byte{nil, {0}, {0, 1, 2}} {
		c, err := DecodeCore(CoreProgram(), data)
		if err != nil {
			t.Fatalf("%v: %v", data, err)
		}
		if c.Kind != CoreBurnt || !c.Burnt {
			t.Errorf("%v: kind %s burnt %v", data, c.Kind, c.Burnt)
		}
	}
}

// TestDecodeCoreUnknownPluginType rewrites a fixture's only registry record
// to a plugin type this decoder does not know: the account still decodes.
func TestDecodeCoreUnknownPluginType(t *testing.T) {
	a := loadCore(t, "mpl_core_get_asset_with_edition", "AejY8LGKAbQsrGZS1qgN4uFu99dJD3f8Js9Yrt7K3tCc")
	data := append([]byte(nil), a.Data...)
	c, err := DecodeCore(a.Owner, data)
	if err != nil {
		t.Fatal(err)
	}
	// Header at the end of the base, registry right after the plugin.
	regOff := binary.LittleEndian.Uint64(data[c.Plugins[0].Offset-8:])
	// Registry: key, u32 count, then the record's plugin type byte.
	data[regOff+5] = 250
	c, err = DecodeCore(a.Owner, data)
	if err != nil {
		t.Fatalf("unknown plugin type failed the account: %v", err)
	}
	if len(c.Plugins) != 0 || len(c.UnknownPlugins) != 1 {
		t.Fatalf("plugins %d unknown %d", len(c.Plugins), len(c.UnknownPlugins))
	}
	u := c.UnknownPlugins[0]
	if u.Type != 250 || u.Offset != 119 || len(u.Raw) == 0 || u.Raw[0] != byte(CoreEditionPlugin) {
		t.Errorf("unknown plugin = %+v", u)
	}
}

func TestDecodeCoreErrors(t *testing.T) {
	good := loadCore(t, "mpl_core_get_asset", "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr").Data
	badAuth := append([]byte(nil), good...)
	badAuth[33] = 7
	badHeader := append([]byte(nil), good...)
	// The plugin header follows the 110-byte base; point its registry
	// offset past the end.
	binary.LittleEndian.PutUint64(badHeader[111:], 1<<40)
	tests := []struct {
		name  string
		owner solana.Pubkey
		data  []byte
		short bool
	}{
		{"wrong owner", token.TokenProgram(), good, false},
		{"hashed asset", CoreProgram(), []byte{CoreKeyHashedAssetV1, 1, 2}, false},
		{"stray registry", CoreProgram(), []byte{CoreKeyPluginRegistryV1, 0, 0, 0, 0}, false},
		{"garbage key", CoreProgram(), []byte{0xff, 1, 2, 3}, false},
		{"truncated base", CoreProgram(), good[:40], true},
		{"truncated plugins", CoreProgram(), good[:len(good)-3], true},
		{"bad update authority", CoreProgram(), badAuth, false},
		{"registry beyond data", CoreProgram(), badHeader, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeCore(tc.owner, tc.data)
			if err == nil {
				t.Fatalf("decoded %+v, want an error", c)
			}
			if tc.short && !errors.Is(err, borsh.ErrShort) {
				t.Errorf("err = %v, want borsh.ErrShort", err)
			}
		})
	}
	if _, err := DecodeCore(CoreProgram(), []byte{CoreKeyHashedAssetV1}); !errors.Is(err, ErrCoreUnsupported) {
		t.Errorf("hashed asset err = %v, want ErrCoreUnsupported", err)
	}
}

// TestDecodeCoreTruncations cuts every fixture at every length: each cut
// must fail cleanly (or still decode), never panic.
func TestDecodeCoreTruncations(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(coreFixtures, "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := solana.ParseAccount(raw)
		if err != nil {
			t.Fatal(err)
		}
		failures := 0
		for n := 1; n < len(a.Data); n++ {
			if _, err := DecodeCore(a.Owner, a.Data[:n]); err != nil {
				failures++
			}
		}
		if failures == 0 {
			t.Errorf("%s: no truncation was rejected", filepath.Base(f))
		}
	}
}

func TestAssetSignerPDA(t *testing.T) {
	asset := pk(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	s1, s2 := AssetSignerPDA(asset), AssetSignerPDA(asset)
	if s1 != s2 || s1 == asset || s1 == (solana.Pubkey{}) {
		t.Errorf("signer %s", s1)
	}
	if AssetSignerPDA(pk(t, "Aw7KSaeRECbjLW7BYTUtMwGkaiAGhxrQxdLnpLYRnmbB")) == s1 {
		t.Error("two assets share a signer")
	}
	if CoreProgram().String() != "CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d" {
		t.Errorf("program %s", CoreProgram())
	}
}

// FuzzDecodeCore feeds arbitrary bytes (seeded with every fixture) to the
// Core decoder: it may fail but never panic.
func FuzzDecodeCore(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(coreFixtures, "*", "*.json"))
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		a, err := solana.ParseAccount(raw)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(a.Data)
	}
	f.Add([]byte{CoreKeyGroupV1})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCore(CoreProgram(), data)
		if err == nil && c == nil {
			t.Fatal("nil account without error")
		}
	})
}

// coreGroupBytes builds a GroupV1 account: key, update authority, name,
// uri and the collections / groups / parent groups / assets vectors.
func coreGroupBytes(ua solana.Pubkey, name string, members ...[]solana.Pubkey) []byte {
	b := []byte{CoreKeyGroupV1}
	b = append(b, ua[:]...)
	for _, s := range []string{name, "https://example.com/group"} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	for _, m := range members {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(m)))
		for _, k := range m {
			b = append(b, k[:]...)
		}
	}
	return b
}

func TestDecodeCoreGroup(t *testing.T) {
	ua := pk(t, "APrZTeVysBJqAznfLXS71NAzjr2fCVTSF1A66MeErzM7")
	coll := pk(t, "DHciVfQxHHM7t2asQJRjjkKbjvZ4PuG3Y3uiULMQUjJQ")
	asset := pk(t, "x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr")
	data := coreGroupBytes(ua, "Group", []solana.Pubkey{coll}, nil, nil, []solana.Pubkey{asset})
	c, err := DecodeCore(CoreProgram(), data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != CoreGroup || c.Name != "Group" || c.UpdateAuthority.Address != ua || c.Group == nil ||
		len(c.Group.Collections) != 1 || c.Group.Collections[0] != coll || len(c.Group.Assets) != 1 || c.Group.Assets[0] != asset {
		t.Errorf("group = %+v %+v", c, c.Group)
	}
	if _, err := DecodeCore(CoreProgram(), data[:len(data)-1]); !errors.Is(err, borsh.ErrShort) {
		t.Errorf("truncated group err = %v, want borsh.ErrShort", err)
	}
}
