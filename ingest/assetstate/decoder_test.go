package assetstate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

const corpus = "../../testdata/das"

func load(t *testing.T, f string) *solana.Account {
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

func pk(t *testing.T, s string) solana.Pubkey {
	t.Helper()
	k, err := solana.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestRouting checks where each kind of account is stored: under the asset
// it describes, with its kind, holder and amount.
func TestRouting(t *testing.T) {
	const mint = "843gdpsTE4DoJz3ZoBsEjAqT8UgAcyF5YojygGgGZE1f"
	tests := []struct {
		file, kind, asset, holder string
		amount                    uint64
	}{
		{"accounts/account_updates/" + mint + ".json", schema.AssetKindMint, mint, "", 1},
		{"accounts/account_updates/6cQEeDKhobxxsvPKcAsdHZbDrPgQtEpo8PFzayDu5Gi5.json", schema.AssetKindMetadata, mint, "", 0},
		{"accounts/account_updates/DPBEGb2DajfkannVZ6J4NxRY2ovz1yn1j36i1WVdZVpW.json", schema.AssetKindTokenAccount, mint, "*", 1},
		{"accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json", schema.AssetKindCore,
			"x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr", "", 0},
		{"accounts/token_extensions_get_asset_scenario_1/BPU5vrAHafRuVeK33CgfdwTKSsmC4p6t3aqyav3cFF7Y.json", schema.AssetKindMint,
			"BPU5vrAHafRuVeK33CgfdwTKSsmC4p6t3aqyav3cFF7Y", "", 0},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			acc := load(t, tc.file)
			var b decode.Batch
			if err := (Decoder{}).DecodeAccount(acc, &b); err != nil {
				t.Fatal(err)
			}
			// A token account is also decoded into the two token-account
			// read paths; every row comes with its feed, last.
			want := 2
			if tc.kind == schema.AssetKindTokenAccount {
				want = 4
			}
			if len(b.Rows()) != want {
				t.Fatalf("%d rows, want %d", len(b.Rows()), want)
			}
			row := b.Rows()[0].(*accountRow)
			if f, ok := b.Rows()[want-1].(*PubkeyRow); !ok || f.Pubkey != acc.Pubkey || f.AssetID != row.AssetID || f.Kind != row.Kind {
				t.Errorf("last row %+v, want the feed of %+v", b.Rows()[want-1], row)
			}
			if want == 4 {
				tr, ok := b.Rows()[1].(*TokenAccountRow)
				if !ok || b.Rows()[2].Table() != schema.TableAssetTokenOwners {
					t.Fatalf("rows %T %s, want the token account by mint and by owner", b.Rows()[1], b.Rows()[2].Table())
				}
				if tr.Address != acc.Pubkey || tr.Account.Mint != row.AssetID || tr.Account.Owner != *row.Holder ||
					tr.Account.Amount != row.Amount || tr.Slot != acc.Slot {
					t.Errorf("token account row %+v does not match the account row %+v", tr, row)
				}
			}
			if row.Kind != tc.kind || row.AssetID != pk(t, tc.asset) || row.Pubkey != acc.Pubkey || row.Slot != acc.Slot {
				t.Errorf("row %s under %s (pubkey %s slot %d), want %s under %s", row.Kind, row.AssetID, row.Pubkey, row.Slot, tc.kind, tc.asset)
			}
			if (tc.holder != "") != (row.Holder != nil) {
				t.Errorf("holder %v, want one: %v", row.Holder, tc.holder != "")
			}
			if tc.kind != schema.AssetKindMint || tc.amount != 0 {
				if row.Amount != tc.amount {
					t.Errorf("amount %d, want %d", row.Amount, tc.amount)
				}
			}
		})
	}
}

// TestIgnoredAndBad: accounts of other programs and unknown layouts are
// skipped; an asset program's account that does not decode is an error
// (a dead letter), never a panic; a closed account (the System
// program's, or an asset program's emptied) is filed as a close.
func TestIgnoredAndBad(t *testing.T) {
	token := pk(t, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	meta := pk(t, "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s")
	other := pk(t, "11111111111111111111111111111111")
	tests := []struct {
		name    string
		owner   solana.Pubkey
		data    []byte
		wantErr bool
		closed  bool
	}{
		{"system account", other, make([]byte, 82), false, true},
		{"token multisig", token, make([]byte, 355), false, false},
		{"uninitialized mint", token, make([]byte, 82), false, false},
		{"uninitialized token account", token, make([]byte, 165), false, false},
		{"metadata other key", meta, []byte{7, 1, 2}, false, false},
		{"empty metadata account", meta, nil, false, true},
		{"truncated metadata", meta, []byte{4, 1, 2, 3}, true, false},
		{"truncated edition", meta, []byte{1, 2}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b decode.Batch
			err := (Decoder{}).DecodeAccount(&solana.Account{Owner: tc.owner, Lamports: 1, Data: tc.data, Slot: 3}, &b)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error: %v", err, tc.wantErr)
			}
			rows := b.Rows()
			if !tc.closed {
				if len(rows) != 0 {
					t.Errorf("%d rows, want none", len(rows))
				}
				return
			}
			c, ok := rows[0].(*CloseRow)
			if len(rows) != 2 || !ok || c.Slot != 3 {
				t.Fatalf("rows %v, want a close at slot 3 and its pubkey row", rows)
			}
			if p, ok := rows[1].(*PubkeyRow); !ok || p.Kind != schema.AssetKindClosed || p.Slot != 3 {
				t.Errorf("row %+v, want the pubkey's close at slot 3", rows[1])
			}
		})
	}
	var b decode.Batch
	if err := (Decoder{}).DecodeAccount(&solana.Account{Owner: token, Data: make([]byte, 165)}, &b); err != nil || len(b.Rows()) != 2 {
		t.Errorf("an account without lamports: %v, %d rows, want a close", err, len(b.Rows()))
	}
}
