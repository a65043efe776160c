package assetbench

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

// TestGeneratedAccountsDecode checks that every generated account decodes
// with the ingest decoders and that the asset decoder files it under its
// asset.
func TestGeneratedAccountsDecode(t *testing.T) {
	p, err := NewPlan(GenConfig{Assets: 2_000, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for k := range NumKinds {
		if Available(k) && len(p.ByKind[k]) == 0 {
			t.Errorf("no %s generated", k)
		}
	}
	var accs []solana.Account
	for i := range p.Assets() {
		accs = accs[:0]
		if accs, err = p.Accounts(i, accs); err != nil {
			t.Fatal(err)
		}
		if p.Kind(i) == KindCNFT {
			if len(accs) != 0 || len(p.CNFTEvents(i)) == 0 {
				t.Fatalf("compressed NFT %d: %d accounts, %d events", i, len(accs), len(p.CNFTEvents(i)))
			}
			continue
		}
		if len(accs) == 0 {
			t.Fatalf("asset %d: no accounts", i)
		}
		for j := range accs {
			a := &accs[j]
			if err := decodes(a); err != nil {
				t.Fatalf("asset %d (%s) account %d: %v", i, p.Kind(i), j, err)
			}
			var out decode.Batch
			if err := (assetstate.Decoder{}).DecodeAccount(a, &out); err != nil {
				t.Fatalf("asset %d (%s) account %d: ingest decoder: %v", i, p.Kind(i), j, err)
			}
			// One asset_accounts row and its asset_pubkeys row; a token
			// account is also written to the two token-account read paths.
			want := 2
			if len(out.Rows()) > 0 && out.Rows()[0].Table() == schema.TableAssetAccounts && len(a.Data) == token.AccountLen {
				want = 4
			}
			if len(out.Rows()) != want {
				t.Fatalf("asset %d (%s) account %d: %d rows, want %d", i, p.Kind(i), j, len(out.Rows()), want)
			}
		}
	}
	cols := p.CoreCollectionAccounts(nil)
	if len(cols) != p.CoreCollections() {
		t.Fatalf("%d collection accounts, want %d", len(cols), p.CoreCollections())
	}
	for j := range cols {
		if err := decodes(&cols[j]); err != nil {
			t.Fatalf("core collection %d: %v", j, err)
		}
	}
}

// decodes runs the chain decoder of a's layout.
func decodes(a *solana.Account) error {
	var err error
	switch {
	case a.Owner == metadataProgram && a.Data[0] == byte(metadata.KeyMetadataV1):
		var m *metadata.Metadata
		if m, err = metadata.DecodeMetadata(a.Owner, a.Data); err == nil && a.Pubkey != metadata.MetadataPDA(m.Mint) {
			err = errNotAtPDA
		}
	case a.Owner == metadataProgram:
		_, err = metadata.DecodeMasterEdition(a.Owner, a.Data)
	case a.Owner == coreProgram:
		var c *core.CoreAccount
		if c, err = core.DecodeCore(a.Owner, a.Data); err == nil && c.Kind != core.CoreAsset && c.Kind != core.CoreCollection {
			err = testError("core account of kind " + c.Kind.String())
		}
	case len(a.Data) == token.AccountLen:
		_, err = token.DecodeTokenAccount(a.Owner, a.Data)
	case a.Owner == tokenProgram || a.Owner == token2022Program:
		_, err = token.DecodeMint(a.Owner, a.Data)
	}
	return err
}

type testError string

func (e testError) Error() string { return string(e) }

const errNotAtPDA = testError("metadata not at its mint's PDA")

func TestGeneratorDeterministic(t *testing.T) {
	a, _ := NewPlan(GenConfig{Assets: 300, Seed: 3})
	b, _ := NewPlan(GenConfig{Assets: 300, Seed: 3})
	c, _ := NewPlan(GenConfig{Assets: 300, Seed: 4})
	d, _ := NewPlan(GenConfig{Assets: 300, Seed: 3, Skew: true})
	e, _ := NewPlan(GenConfig{Assets: 300, Seed: 3, Skew: true})
	same := func(p, q *Plan) bool {
		for i := range p.Assets() {
			x, _ := p.Accounts(i, nil)
			y, _ := q.Accounts(i, nil)
			if len(x) != len(y) {
				return false
			}
			for j := range x {
				if x[j].Pubkey != y[j].Pubkey || !bytes.Equal(x[j].Data, y[j].Data) {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("same seed, different accounts")
	}
	if same(a, c) {
		t.Error("different seeds, same accounts")
	}
	if !same(d, e) {
		t.Error("same seed, skewed, different accounts")
	}
	if same(a, d) {
		t.Error("skewed and uniform, same accounts")
	}
}

func BenchmarkGenerate(b *testing.B) {
	p, _ := NewPlan(GenConfig{Assets: 10_000, Seed: 1})
	var accs []solana.Account
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		accs, _ = p.Accounts(i%p.Assets(), accs[:0])
	}
}

// TestSkew checks the skewed draws' shares at 10M assets' scale without
// generating: the big owner, creator and authority weigh about 1% of the
// draws, the big collection about 10% of the assets, the other owners
// from 1 to 1,000 assets with most of them small.
func TestSkew(t *testing.T) {
	p, err := NewPlan(GenConfig{Assets: 2_000_000, Seed: 1, Skew: true})
	if err != nil {
		t.Fatal(err)
	}
	owned := len(p.ByKind[KindNFT]) + len(p.ByKind[KindPNFT]) + len(p.ByKind[KindCore]) + len(p.ByKind[KindCNFT])
	w := p.ownerDraw
	sizes := make([]uint64, len(w.cum))
	for j := range w.cum {
		sizes[j] = w.cum[j]
		if j > 0 {
			sizes[j] -= w.cum[j-1]
		}
	}
	if sizes[0] != 20_000 || w.cum[len(w.cum)-1] != uint64(owned) {
		t.Errorf("big owner %d of %d draws, want 20,000 of %d", sizes[0], w.cum[len(w.cum)-1], owned)
	}
	rest := slices.Clone(sizes[1:])
	slices.Sort(rest)
	if rest[0] != 1 || rest[len(rest)-1] != maxOwnerAssets || rest[len(rest)/2] > 3 {
		t.Errorf("other owners: min %d, median %d, max %d", rest[0], rest[len(rest)/2], rest[len(rest)-1])
	}
	for name, d := range map[string]weighted{"creator": p.creatorDraw, "authority": p.authorityDraw} {
		if d.cum[0] != 20_000 || len(d.cum) < 50 {
			t.Errorf("%s: big %d, %d keys", name, d.cum[0], len(d.cum))
		}
	}
	// The big collection's chance times its candidate members.
	members := 0.9*float64(len(p.ByKind[KindNFT])+len(p.ByKind[KindPNFT])) + 0.5*float64(len(p.ByKind[KindCNFT]))
	if got := float64(p.bigCollection) / math.MaxUint32 * members; got < 199_000 || got > 201_000 {
		t.Errorf("big collection: %.0f expected members, want 200,000", got)
	}
	// The draws follow the weights.
	r := p.rng(domOwner, 1)
	big := 0
	for range 100_000 {
		if w.pick(r) == 0 {
			big++
		}
	}
	if want := 100_000 * 20_000 / owned; big < want*9/10 || big > want*11/10 {
		t.Errorf("big owner drawn %d times of 100,000, want about %d", big, want)
	}
}

func TestListPages(t *testing.T) {
	for _, tc := range []struct{ n, page int }{{100_000, 50}, {1_000_000, 50}, {99_000, 50}, {5_000, 3}, {36, 1}, {1, 1}} {
		if got := offsetPage(tc.n); got != tc.page {
			t.Errorf("offsetPage(%d) = %d, want %d", tc.n, got, tc.page)
		}
	}
	ids := make([]solana.Pubkey, 36)
	for i := range ids {
		ids[i][0] = byte(100 - i)
	}
	c, page := deep(ids)
	if *c != ids[32] || len(page) != 3 || page[0] != ids[33] {
		t.Errorf("deep cursor %v, page of %d", c[0], len(page))
	}
	big := make([]solana.Pubkey, 100_000)
	if c, page := deep(big); c != &big[90_000] || len(page) != listPage {
		t.Errorf("deep cursor of 100,000: page of %d", len(page))
	}
}
