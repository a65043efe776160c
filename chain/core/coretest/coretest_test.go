package coretest

import (
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/solana"
)

var coreProgram = core.CoreProgram()

func k(b byte) solana.Pubkey {
	var p solana.Pubkey
	for i := range p {
		p[i] = b + byte(i)
	}
	return p
}

func TestCoreAssetRoundTrip(t *testing.T) {
	col, frozen := k(7), true
	for _, a := range []*AssetSpec{
		{Owner: k(1), Authority: k(2), Name: "Core", URI: "https://x"},
		{Owner: k(1), Collection: &col, Name: "Core", URI: "u", Plugins: Plugins{
			Royalties:  &RoyaltiesPlugin{BasisPoints: 500, Creators: []Royalty{{k(3), 70}, {k(4), 30}}},
			Freeze:     &frozen,
			Attributes: []Attr{{"a", "1"}, {"b", "2"}},
		}},
	} {
		got, err := core.DecodeCore(coreProgram, EncodeAsset(a))
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if got.Kind != core.CoreAsset || got.Owner != a.Owner || got.Name != a.Name || got.URI != a.URI || got.Seq != nil {
			t.Errorf("base: %+v", got)
		}
		if c, ok := got.CollectionAddress(); ok != (a.Collection != nil) || (ok && c != col) {
			t.Errorf("collection %v %s", ok, c)
		}
		if a.Collection == nil && (got.UpdateAuthority.Type != core.CoreUAAddress || got.UpdateAuthority.Address != a.Authority) {
			t.Errorf("update authority %+v", got.UpdateAuthority)
		}
		checkCorePlugins(t, got, &a.Plugins)
	}
}

func TestCoreCollectionRoundTrip(t *testing.T) {
	c := &CollectionSpec{Authority: k(2), Name: "Col", URI: "u", NumMinted: 5, CurrentSize: 4,
		Plugins: Plugins{Royalties: &RoyaltiesPlugin{BasisPoints: 250, Creators: []Royalty{{k(3), 100}}}}}
	got, err := core.DecodeCore(coreProgram, EncodeCollection(c))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if got.Kind != core.CoreCollection || got.UpdateAuthority.Address != c.Authority || got.Name != c.Name ||
		got.NumMinted != 5 || got.CurrentSize != 4 {
		t.Errorf("base: %+v", got)
	}
	checkCorePlugins(t, got, &c.Plugins)
}

func checkCorePlugins(t *testing.T, got *core.CoreAccount, want *Plugins) {
	t.Helper()
	if len(got.UnknownPlugins) != 0 || len(got.ExternalPlugins) != 0 {
		t.Errorf("unexpected plugins %+v %+v", got.UnknownPlugins, got.ExternalPlugins)
	}
	n := 0
	if r := want.Royalties; r != nil {
		n++
		p := got.Plugin(core.CoreRoyaltiesPlugin)
		if p == nil {
			t.Fatal("royalties missing")
		}
		var creators []core.CoreCreator
		for _, c := range r.Creators {
			creators = append(creators, core.CoreCreator{Address: c.Address, Percentage: c.Percentage})
		}
		if d := p.Data.(core.CoreRoyalties); d.BasisPoints != r.BasisPoints || !reflect.DeepEqual(d.Creators, creators) ||
			p.Authority.Type != core.CoreAuthUpdateAuthority {
			t.Errorf("royalties %+v", p)
		}
	}
	if want.Freeze != nil {
		n++
		p := got.Plugin(core.CoreFreezeDelegatePlugin)
		if p == nil || p.Data.(core.CoreFrozen).Frozen != *want.Freeze || p.Authority.Type != core.CoreAuthOwner {
			t.Errorf("freeze delegate %+v", p)
		}
	}
	if len(want.Attributes) > 0 {
		n++
		p := got.Plugin(core.CoreAttributesPlugin)
		if p == nil {
			t.Fatal("attributes missing")
		}
		var list []core.CoreAttribute
		for _, a := range want.Attributes {
			list = append(list, core.CoreAttribute{Key: a.Key, Value: a.Value})
		}
		if !reflect.DeepEqual(p.Data.(core.CoreAttributes).List, list) {
			t.Errorf("attributes %+v", p.Data)
		}
	}
	if len(got.Plugins) != n {
		t.Errorf("%d plugins, want %d", len(got.Plugins), n)
	}
}
