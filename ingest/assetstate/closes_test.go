package assetstate_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/assetrows"
	"github.com/dasch-labs/dasch/query/tokenaccounts"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// fixtureAccount reads a corpus account file.
func fixtureAccount(t *testing.T, path string) *solana.Account {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpusDir, path))
	if err != nil {
		t.Fatal(err)
	}
	a, err := solana.ParseAccount(raw)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// write is one account write of a scripted history.
type write struct {
	acc  *solana.Account // nil with closed: the account closed
	key  solana.Pubkey
	slot uint64
}

// accountJSON is a as an account file at slot; a closed account reads as
// a node answers for it: the System program's, no lamports, no data.
func accountJSON(w write) []byte {
	owner, lamports, data := solana.SystemProgram(), uint64(0), []byte(nil)
	if w.acc != nil {
		owner, lamports, data = w.acc.Owner, max(w.acc.Lamports, 1), w.acc.Data
	}
	b, _ := json.Marshal(map[string]any{
		"pubkey": w.key.String(), "owner": owner.String(), "lamports": lamports,
		"data": base64.StdEncoding.EncodeToString(data), "slot": w.slot, "write_version": 0,
	})
	return b
}

// withBytes is a copy of a with data[off:] overwritten by b.
func withBytes(a *solana.Account, off int, b []byte) *solana.Account {
	c := *a
	c.Data = slices.Clone(a.Data)
	copy(c.Data[off:], b)
	return &c
}

func u64le(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}

// tableState is what the asset tables hold after FINAL, every version
// column left out: asset_state's status and document by id, the newest
// row of every asset account, and both token tables.
func tableState(t *testing.T, s store.Querier) map[string]string {
	t.Helper()
	out := map[string]string{}
	for id, v := range foldedRows(t, s) {
		out["state "+solana.Pubkey([]byte(id)).String()] = v
	}
	for _, q := range []string{
		`SELECT 'account', hex(asset_id), kind, hex(pubkey), hex(data), slot, write_version, amount FROM asset_accounts FINAL`,
		`SELECT 'token', hex(address), hex(mint), hex(owner), amount, closed, slot FROM asset_token_accounts FINAL`,
		`SELECT 'owner', hex(owner), hex(address), hex(mint), amount, closed, slot FROM asset_token_owners FINAL`,
	} {
		res, err := s.Query(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range res.Rows {
			k := fmt.Sprint(row[:4]...)
			out[k] = fmt.Sprint(row[4:]...)
		}
	}
	return out
}

// A closed account ends the asset state it fed, whatever order its
// writes are indexed in, and applying every range again changes nothing.
func TestClosedAccountsEndTheirState(t *testing.T) {
	mintAcc := fixtureAccount(t, "accounts/reg_get_asset/CMVuYDS9nTeujfTPJb8ik7CRhAqZv4DfjfdamFLkJgxE.json")
	meta := fixtureAccount(t, "accounts/reg_get_asset/52J4tmbP9o3GHQrkts8vhXm84CLzM7KSXboKGnrw3YTW.json")
	ta1 := fixtureAccount(t, "accounts/reg_get_asset/Fc1MSqW3eifoMuDupvimtu2DbSYmGUtSQ7wBUoz87uK5.json")
	coreAcc := fixtureAccount(t, "accounts/mpl_core_get_asset/x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr.json")
	mint := mintAcc.Pubkey
	owner1 := solana.Pubkey(ta1.Data[32:64])
	owner2 := solana.Pubkey{0xaa, 0xbb}
	ta2Key := solana.Pubkey{0xcc, 0xdd}
	ta2 := withBytes(ta1, 32, owner2[:])
	ta1Empty := withBytes(ta1, 64, u64le(0))
	mintBurnt := withBytes(mintAcc, 36, u64le(0))
	seed := []write{{mintAcc, mint, 10}, {meta, meta.Pubkey, 10}, {ta1, ta1.Pubkey, 10}}

	tests := []struct {
		name   string
		writes []write
		check  func(t *testing.T, s store.Querier)
	}{{
		name: "transfer to a new token account, then the old one closed",
		writes: append(slices.Clone(seed),
			write{ta2, ta2Key, 20}, write{ta1Empty, ta1.Pubkey, 20}, write{nil, ta1.Pubkey, 21}),
		check: func(t *testing.T, s store.Querier) {
			wantOwner(t, s, mint, owner2.String())
			wantAccounts(t, s, tokenaccounts.Query{Mint: &mint, Zero: true}, ta2Key)
			wantAccounts(t, s, tokenaccounts.Query{Owner: &owner1, Zero: true})
			wantAccounts(t, s, tokenaccounts.Query{Owner: &owner2}, ta2Key)
		},
	}, {
		name:   "the only token account closed",
		writes: append(slices.Clone(seed), write{ta1Empty, ta1.Pubkey, 20}, write{nil, ta1.Pubkey, 21}),
		check: func(t *testing.T, s store.Querier) {
			wantOwner(t, s, mint, "")
			wantAccounts(t, s, tokenaccounts.Query{Mint: &mint, Zero: true})
			wantAccounts(t, s, tokenaccounts.Query{Owner: &owner1, Zero: true})
		},
	}, {
		name: "an NFT burnt: supply 0, token account and metadata closed",
		writes: append(slices.Clone(seed), write{mintBurnt, mint, 30}, write{ta1Empty, ta1.Pubkey, 30},
			write{nil, ta1.Pubkey, 31}, write{nil, meta.Pubkey, 31}),
		check: func(t *testing.T, s store.Querier) {
			wantStatus(t, s, mint, schema.AssetStatusNoSupply)
			wantAccounts(t, s, tokenaccounts.Query{Mint: &mint, Zero: true})
		},
	}, {
		name: "a token account closed and opened again",
		writes: append(slices.Clone(seed), write{ta1Empty, ta1.Pubkey, 20}, write{nil, ta1.Pubkey, 21},
			write{ta1, ta1.Pubkey, 25}),
		check: func(t *testing.T, s store.Querier) {
			wantOwner(t, s, mint, owner1.String())
			wantAccounts(t, s, tokenaccounts.Query{Owner: &owner1}, ta1.Pubkey)
		},
	}, {
		name:   "a Core asset burnt by closing its account",
		writes: []write{{coreAcc, coreAcc.Pubkey, 10}, {nil, coreAcc.Pubkey, 40}},
		check: func(t *testing.T, s store.Querier) {
			f := folded(t, s, coreAcc.Pubkey)
			if f.Status != "" || !strings.Contains(string(f.Doc), `"burnt":true`) {
				t.Errorf("Core asset folded as %q %.200s, want burnt", f.Status, f.Doc)
			}
		},
	}}
	rng := rand.New(rand.NewPCG(45, 1))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := make([]string, len(tc.writes))
			for i, w := range tc.writes {
				files[i] = filepath.Join(dir, fmt.Sprintf("%02d.json", i))
				if err := os.WriteFile(files[i], accountJSON(w), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := storetest.Open(t)
			step := assetstate.NewFoldStep()
			index(t, s, each(files), step)
			tc.check(t, s)
			checkFolded(t, s)
			want := tableState(t, s)
			// Merged, the engine keeps only the newest row of each key:
			// folding everything again must not need the older ones.
			for _, table := range []string{"asset_accounts", "asset_token_accounts", "asset_token_owners", "asset_closes", "asset_pubkeys"} {
				if err := s.Exec(context.Background(), "OPTIMIZE TABLE "+table+" FINAL", nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := step.Apply(context.Background(), s, 0, 1<<62); err != nil {
				t.Fatal(err)
			}
			if got := tableState(t, s); !maps.Equal(got, want) {
				t.Errorf("merging, then applying every range again changed the tables:\n got %v\nwant %v", got, want)
			}
			for range 4 {
				order := slices.Clone(files)
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				s := storetest.Open(t)
				index(t, s, each(order), assetstate.NewFoldStep())
				if got := tableState(t, s); !maps.Equal(got, want) {
					t.Errorf("order %v: tables differ from slot order's:\n got %v\nwant %v", names(order), got, want)
					continue
				}
				tc.check(t, s)
			}
		})
	}
}

func names(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.TrimSuffix(filepath.Base(p), ".json")
	}
	return out
}

func folded(t *testing.T, s store.Querier, id solana.Pubkey) assetrows.Folded {
	t.Helper()
	f, err := assetrows.LoadFolded(context.Background(), s, []solana.Pubkey{id})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := f[id]
	if !ok {
		t.Fatalf("%s is not folded", id)
	}
	return got
}

func wantStatus(t *testing.T, s store.Querier, id solana.Pubkey, status string) {
	t.Helper()
	if f := folded(t, s, id); f.Status != status {
		t.Errorf("%s folded with status %q, want %q", id, f.Status, status)
	}
}

func wantOwner(t *testing.T, s store.Querier, id solana.Pubkey, owner string) {
	t.Helper()
	f := folded(t, s, id)
	var doc struct {
		Ownership struct {
			Owner string `json:"owner"`
		} `json:"ownership"`
	}
	if err := json.Unmarshal(f.Doc, &doc); err != nil {
		t.Fatalf("%s folded as %q: %v", id, f.Status, err)
	}
	if doc.Ownership.Owner != owner {
		t.Errorf("%s owned by %q, want %q", id, doc.Ownership.Owner, owner)
	}
}

func wantAccounts(t *testing.T, s store.Querier, q tokenaccounts.Query, want ...solana.Pubkey) {
	t.Helper()
	got, err := tokenaccounts.List(context.Background(), s, q, tokenaccounts.Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var addrs []solana.Pubkey
	for _, a := range got {
		addrs = append(addrs, a.Address)
	}
	if !slices.Equal(addrs, want) {
		t.Errorf("token accounts %v, want %v", addrs, want)
	}
}
