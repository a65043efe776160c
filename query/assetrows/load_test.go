package assetrows_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const corpus = "../../testdata/das"

// index ingests files one pipeline run each, in order.
func index(t *testing.T, s arrowstore.Store, files ...string) {
	t.Helper()
	for _, f := range files {
		cfg := ingest.Config{Store: s, Source: source.NewFileList([]string{filepath.Join(corpus, f)}),
			Decoders: []decode.Decoder{assetstate.Decoder{}}}
		if _, err := ingest.Run(context.Background(), cfg); err != nil {
			t.Fatalf("index %s: %v", f, err)
		}
	}
}

func account(t *testing.T, f string) *solana.Account {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, f))
	if err != nil {
		t.Fatal(err)
	}
	a, err := solana.ParseAccount(b)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestLoadNewestWins indexes an NFT and stale and fresh updates of its
// metadata and token account in several orders: the newest write of each
// account is what Load returns, whatever the order, and re-indexing
// changes nothing.
func TestLoadNewestWins(t *testing.T) {
	const (
		mint     = "accounts/account_updates/843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f.json"
		meta     = "accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json"
		token    = "accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json"
		meta0    = "synthetic_accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.metadata_update.slot0.json"
		meta2    = "synthetic_accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.metadata_update.slot2.json"
		token0   = "synthetic_accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.token_update.slot0.json"
		token2   = "synthetic_accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.token_update.slot2.json"
		metaPDA  = "6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5"
		tokenKey = "DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW"
	)
	orders := map[string][]string{
		"forward":    {mint, meta, token, meta0, token0, meta2, token2},
		"reverse":    {token2, meta2, token0, meta0, token, meta, mint},
		"stale last": {meta2, token2, mint, meta, token, meta0, token0},
		"twice":      {mint, meta, token, meta2, token2, mint, meta, token, meta2, token2, meta0},
	}
	id := account(t, mint).Pubkey
	wantMeta, wantToken := account(t, meta2), account(t, token2)
	for name, files := range orders {
		t.Run(name, func(t *testing.T) {
			s := storetest.Open(t)
			index(t, s, files...)
			states, err := assetrows.Load(context.Background(), s, []solana.Pubkey{id})
			if err != nil {
				t.Fatal(err)
			}
			st := states[id]
			if st == nil {
				t.Fatal("nothing loaded")
			}
			if len(st.Accounts) != 3 {
				t.Fatalf("%d accounts, want mint, metadata, token account: %+v", len(st.Accounts), st.Accounts)
			}
			md := st.Find(schema.AssetKindMetadata, wantMeta.Pubkey)
			if md == nil || md.Slot != 2 || !bytes.Equal(md.Data, wantMeta.Data) {
				t.Errorf("metadata %s: got %+v, want the slot 2 write", metaPDA, md)
			}
			ta := st.Find(schema.AssetKindTokenAccount, wantToken.Pubkey)
			if ta == nil || ta.Slot != 2 || !bytes.Equal(ta.Data, wantToken.Data) {
				t.Errorf("token account %s: got %+v, want the slot 2 write", tokenKey, ta)
			}
			if m := st.Find(schema.AssetKindMint, id); m == nil || m.Amount != 1 {
				t.Errorf("mint: %+v, want supply 1", m)
			}
		})
	}
}

// TestLoadUnknownAndEmpty: nothing stored is an absent entry, not an error.
func TestLoadUnknownAndEmpty(t *testing.T) {
	s := storetest.Open(t)
	got, err := assetrows.Load(context.Background(), s, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("no ids: %v %v", got, err)
	}
	var k solana.Pubkey
	k[0] = 9
	got, err = assetrows.Load(context.Background(), s, []solana.Pubkey{k})
	if err != nil || len(got) != 0 {
		t.Fatalf("unknown id: %v %v", got, err)
	}
}
