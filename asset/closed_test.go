package asset

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
	"github.com/dasch-labs/dasch/chain/metadata"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/schema"
)

// statesOf files seeded accounts as the store loader returns them: each
// under the asset it describes, with its last open data as Live.
func statesOf(t *testing.T, accs accountStore, mint solana.Pubkey) map[solana.Pubkey]*State {
	t.Helper()
	states := map[solana.Pubkey]*State{}
	add := func(id solana.Pubkey, kind string, a *solana.Account, amount uint64) {
		st := states[id]
		if st == nil {
			st = &State{ID: id}
			states[id] = st
		}
		st.Accounts = append(st.Accounts, Account{Kind: kind, Pubkey: a.Pubkey, Program: a.Owner, Data: a.Data, Live: a.Data,
			Slot: a.Slot, Amount: amount})
	}
	for _, a := range accs {
		switch {
		case a.Pubkey == mint:
			m, err := token.DecodeMint(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			add(mint, schema.AssetKindMint, a, m.Supply)
		case a.Pubkey == metadata.MetadataPDA(mint):
			add(mint, schema.AssetKindMetadata, a, 0)
		case a.Pubkey == metadata.EditionPDA(mint):
			add(a.Pubkey, schema.AssetKindEdition, a, 0)
		case a.Owner == token.TokenProgram() && len(a.Data) == 165:
			ta, err := token.DecodeTokenAccount(a.Owner, a.Data)
			if err != nil {
				t.Fatal(err)
			}
			add(mint, schema.AssetKindTokenAccount, a, ta.Amount)
		}
	}
	return states
}

func renderOne(t *testing.T, id solana.Pubkey, states map[solana.Pubkey]*State) Result {
	t.Helper()
	res, err := Render([]solana.Pubkey{id}, func(keys []solana.Pubkey, into map[solana.Pubkey]*State) error {
		for _, k := range keys {
			if st := states[k]; st != nil {
				into[k] = st
			}
		}
		return nil
	}, Folded)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

// closeAcc makes acc read as the store reads a closed account: no data,
// no amount, the last open data kept as Live.
func closeAcc(acc *Account) {
	acc.Live, acc.Data, acc.Amount = acc.Data, nil, 0
	acc.Slot += 10
}

func find(st *State, kind string) *Account {
	for i := range st.Accounts {
		if st.Accounts[i].Kind == kind {
			return &st.Accounts[i]
		}
	}
	return nil
}

// A closed account ends what it fed: a closed token account holds the
// asset no more, a closed mint or metadata account burns the asset.
func TestClosedTokenAccounts(t *testing.T) {
	c := loadTokenCase(t, "reg_get_asset")
	mint, err := solana.ParsePubkey(c.Request.Params.ID)
	if err != nil {
		t.Fatal(err)
	}
	accs := seedAccounts(t, c)
	newOwner := solana.Pubkey{7, 7, 7}
	tests := []struct {
		name      string
		edit      func(st *State)
		wantErr   error
		wantOwner string // "-" keeps the seeded owner
		burnt     bool
	}{
		{name: "as seeded", edit: func(*State) {}, wantOwner: "-"},
		{name: "only token account closed", edit: func(st *State) { closeAcc(find(st, schema.AssetKindTokenAccount)) }, wantOwner: ""},
		{name: "moved to a new account, the old one closed", edit: func(st *State) {
			old := find(st, schema.AssetKindTokenAccount)
			moved := *old
			moved.Pubkey, moved.Data = solana.Pubkey{9, 9}, append([]byte(nil), old.Data...)
			copy(moved.Data[32:64], newOwner[:])
			moved.Live, moved.Slot = moved.Data, old.Slot+5
			closeAcc(old)
			st.Accounts = append(st.Accounts, moved)
		}, wantOwner: newOwner.String()},
		{name: "metadata closed", edit: func(st *State) { closeAcc(find(st, schema.AssetKindMetadata)) }, wantOwner: "-", burnt: true},
		{name: "mint closed", edit: func(st *State) { closeAcc(find(st, schema.AssetKindMint)) }, wantOwner: "-", burnt: true},
		{name: "mint closed at supply zero, as the chain closes it", edit: func(st *State) {
			m := find(st, schema.AssetKindMint)
			closeAcc(m)
			m.Live = append([]byte(nil), m.Live...)
			clear(m.Live[36:44]) // the supply, after the mint authority option
		}, wantErr: ErrNoSupply},
		{name: "metadata closed before any open write", edit: func(st *State) {
			md := find(st, schema.AssetKindMetadata)
			closeAcc(md)
			md.Live = nil
		}, wantErr: ErrNotFound},
	}
	base := renderOne(t, mint, statesOf(t, accs, mint))
	if base.Err != nil {
		t.Fatal(base.Err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			states := statesOf(t, accs, mint)
			tc.edit(states[mint])
			res := renderOne(t, mint, states)
			if tc.wantErr != nil {
				if !errors.Is(res.Err, tc.wantErr) {
					t.Fatalf("err %v, want %v", res.Err, tc.wantErr)
				}
				return
			}
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			want := tc.wantOwner
			if want == "-" {
				want = base.Asset.Ownership.Owner
			}
			if got := res.Asset.Ownership.Owner; got != want {
				t.Errorf("owner %q, want %q", got, want)
			}
			if res.Asset.Burnt != tc.burnt {
				t.Errorf("burnt %v, want %v", res.Asset.Burnt, tc.burnt)
			}
		})
	}
}

func TestClosedCoreAsset(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(corpusRoot, "cases", "mpl_core_get_asset.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c coreCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	id, err := solana.ParsePubkey(c.Request.Params.ID)
	if err != nil {
		t.Fatal(err)
	}
	var acc *solana.Account
	for _, ap := range c.Seed.Apply {
		b, err := os.ReadFile(filepath.Join(corpusRoot, ap.Account))
		if err != nil {
			t.Fatal(err)
		}
		if a, err := solana.ParseAccount(b); err == nil && a.Pubkey == id {
			acc = a
		}
	}
	if acc == nil || acc.Owner != core.CoreProgram() {
		t.Fatalf("case seeds no Core account at %s", id)
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		live    []byte
		wantErr error
		burnt   bool
	}{
		{name: "open", data: acc.Data, live: acc.Data},
		{name: "closed", live: acc.Data, burnt: true},
		{name: "burnt to one byte", data: []byte{0}, live: acc.Data, burnt: true},
		{name: "closed before any open write", wantErr: ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			states := map[solana.Pubkey]*State{id: {ID: id, Accounts: []Account{{
				Kind: schema.AssetKindCore, Pubkey: id, Program: acc.Owner, Data: tc.data, Live: tc.live, Slot: acc.Slot,
			}}}}
			res := renderOne(t, id, states)
			if tc.wantErr != nil {
				if !errors.Is(res.Err, tc.wantErr) {
					t.Fatalf("err %v, want %v", res.Err, tc.wantErr)
				}
				return
			}
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if res.Asset.Burnt != tc.burnt || res.Asset.Content == nil || res.Asset.Content.Metadata.Name == "" {
				t.Errorf("burnt %v (want %v), content %+v", res.Asset.Burnt, tc.burnt, res.Asset.Content)
			}
		})
	}
}
