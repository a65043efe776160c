package assetbench

import (
	"bytes"
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
			// One asset_accounts row; a token account is also written to
			// the two token-account read paths.
			want := 1
			if len(out.Rows()) > 0 && out.Rows()[0].Table() == schema.TableAssetAccounts && len(a.Data) == token.AccountLen {
				want = 3
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
}

func BenchmarkGenerate(b *testing.B) {
	p, _ := NewPlan(GenConfig{Assets: 10_000, Seed: 1})
	var accs []solana.Account
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		accs, _ = p.Accounts(i%p.Assets(), accs[:0])
	}
}
