package compressed_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

func hashes(as []compressed.Account) []byte {
	out := []byte{}
	for _, a := range as {
		out = append(out, a.Hash[0])
	}
	return out
}

func TestTokenAccounts(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	const owner, other, del = 10, 11, 12
	rows := []struct {
		a     compressed.Account
		spent bool
	}{
		{tokenAccount(owner, 5, 9, 100), false},
		{tokenAccount(owner, 5, 3, 200), false},
		{tokenAccount(owner, 1, 200, 300), false},
		{tokenAccount(owner, 1, 4, 400), false},
		{tokenAccount(owner, 1, 4, 400), true}, // the spent row replaces the unspent one
		{tokenAccount(other, 5, 7, 500), false},
	}
	for _, r := range rows {
		insertAccount(t, s, "token_accounts", r.a, r.spent, "", "", nil)
		a := r.a
		a.Delegate = ptr(key(del))
		insertAccount(t, s, "token_accounts_by_delegate", a, r.spent, "delegate_key", "{dk:FixedString(32)}",
			store.Params{"dk": string(a.Delegate[:])})
	}
	// Created at slot 30: hidden from answers stamped with an earlier slot.
	late := tokenAccount(owner, 5, 8, 600)
	late.SlotCreated = 30
	insertAccount(t, s, "token_accounts", late, false, "", "", nil)
	late.Delegate = ptr(key(del))
	insertAccount(t, s, "token_accounts_by_delegate", late, false, "delegate_key", "{dk:FixedString(32)}",
		store.Params{"dk": string(late.Delegate[:])})
	slot29, slot30 := uint64(29), uint64(30)
	mint5 := key(5)
	// Every row is also delegated to del, the other owner's included.
	tests := []struct {
		name    string
		who     byte
		page    compressed.TokenPage
		want    []byte // by owner
		wantDel []byte // by delegate
	}{
		{"all by mint then hash", owner, compressed.TokenPage{Limit: 10, AsOf: &slot29}, []byte{200, 3, 9}, []byte{200, 3, 7, 9}},
		{"as of the late account's slot", owner, compressed.TokenPage{Limit: 10, AsOf: &slot30}, []byte{200, 3, 8, 9}, []byte{200, 3, 7, 8, 9}},
		{"limit", owner, compressed.TokenPage{AsOf: &slot29, Limit: 2}, []byte{200, 3}, []byte{200, 3}},
		{"after cursor", owner, compressed.TokenPage{AsOf: &slot29, Limit: 10, After: &compressed.TokenCursor{Mint: key(1), Hash: key(200)}}, []byte{3, 9}, []byte{3, 7, 9}},
		{"cursor inside a mint", owner, compressed.TokenPage{AsOf: &slot29, Limit: 10, After: &compressed.TokenCursor{Mint: key(5), Hash: key(3)}}, []byte{9}, []byte{7, 9}},
		{"mint filter", owner, compressed.TokenPage{AsOf: &slot29, Limit: 10, Mint: &mint5}, []byte{3, 9}, []byte{3, 7, 9}},
		{"mint filter and cursor", owner, compressed.TokenPage{AsOf: &slot29, Limit: 10, Mint: &mint5, After: &compressed.TokenCursor{Mint: key(5), Hash: key(3)}}, []byte{9}, []byte{7, 9}},
		{"zero limit", owner, compressed.TokenPage{Limit: 0}, []byte{}, []byte{}},
		{"other owner", other, compressed.TokenPage{AsOf: &slot29, Limit: 10}, []byte{7}, nil},
		{"unknown owner", 99, compressed.TokenPage{AsOf: &slot29, Limit: 10}, []byte{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.TokenAccountsByOwner(ctx, s, key(tt.who), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("by owner: hashes %v, want %v", hashes(got), tt.want)
			}
			if tt.wantDel == nil {
				return
			}
			got, err = compressed.TokenAccountsByDelegate(ctx, s, key(del), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.wantDel) {
				t.Errorf("by delegate: hashes %v, want %v", hashes(got), tt.wantDel)
			}
		})
	}
}

func TestTokenAccountFields(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	a := tokenAccount(1, 2, 3, 18446744073709551615)
	a.Address = ptr(key(77))
	a.Delegate = ptr(key(78))
	a.TokenState = 1
	a.TLV = []byte{0, 1, 2}
	a.Seq = nil
	a.InOutputQueue = true
	a.TreeType = 3
	a.SlotCreated = 42
	a.Lamports = 9
	a.Data.Discriminator = 288230376151711744
	insertAccount(t, s, "token_accounts", a, false, "", "", nil)
	got, err := compressed.TokenAccountsByOwner(ctx, s, key(1), compressed.TokenPage{Limit: 1})
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	if !reflect.DeepEqual(got[0], a) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got[0], a)
	}
}
