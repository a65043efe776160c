package compressed_test

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

func TestTokenBalancesByOwner(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for _, r := range []struct {
		owner, mint byte
		balance     uint64
		version     uint64
	}{
		{1, 9, 50, 1}, {1, 9, 70, 2}, // the newer version wins
		{1, 3, 5, 1},
		{1, 200, 0, 3}, // emptied
		{1, 120, 1, 1},
		{2, 3, 8, 1},
	} {
		exec(t, s, `INSERT INTO token_balances (owner, mint, balance, version)
			VALUES ({o:FixedString(32)}, {m:FixedString(32)}, {b:UInt64}, {v:UInt64})`, store.Params{
			"o": raw(key(r.owner)), "m": raw(key(r.mint)),
			"b": strconv.FormatUint(r.balance, 10), "v": strconv.FormatUint(r.version, 10)})
	}
	type mb struct {
		mint    byte
		balance uint64
	}
	mint9 := key(9)
	tests := []struct {
		name  string
		owner byte
		page  qc.BalancePage
		want  []mb
	}{
		{"all", 1, qc.BalancePage{Limit: 10}, []mb{{3, 5}, {9, 70}, {120, 1}}},
		{"with zero", 1, qc.BalancePage{Limit: 10, WithZero: true}, []mb{{3, 5}, {9, 70}, {120, 1}, {200, 0}}},
		{"limit", 1, qc.BalancePage{Limit: 2}, []mb{{3, 5}, {9, 70}}},
		{"after", 1, qc.BalancePage{Limit: 10, AfterMint: &mint9}, []mb{{120, 1}}},
		{"mint", 1, qc.BalancePage{Limit: 10, Mint: &mint9}, []mb{{9, 70}}},
		{"mint and after it", 1, qc.BalancePage{Limit: 10, Mint: &mint9, AfterMint: &mint9}, []mb{}},
		{"other owner", 2, qc.BalancePage{Limit: 10}, []mb{{3, 8}}},
		{"unknown owner", 7, qc.BalancePage{Limit: 10}, []mb{}},
		{"zero limit", 1, qc.BalancePage{}, []mb{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := qc.TokenBalancesByOwner(ctx, s, key(tt.owner), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			out := []mb{}
			for _, b := range got {
				if b.Mint != key(b.Mint[0]) {
					t.Fatalf("mint bytes garbled: %x", b.Mint)
				}
				out = append(out, mb{b.Mint[0], b.Balance})
			}
			if !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got %v, want %v", out, tt.want)
			}
		})
	}
}

func TestMintHolders(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	ins := func(mint, owner byte, balance, version uint64, deleted bool) {
		del := "0"
		if deleted {
			del = "1"
		}
		exec(t, s, `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
			VALUES ({m:FixedString(32)}, {b:UInt64}, {o:FixedString(32)}, {v:UInt64}, {d:UInt8})`, store.Params{
			"m": raw(key(mint)), "o": raw(key(owner)),
			"b": strconv.FormatUint(balance, 10), "v": strconv.FormatUint(version, 10), "d": del})
	}
	const mint = 5
	ins(mint, 1, 100, 1, false)
	ins(mint, 1, 100, 2, true)  // owner 1 went from 100 ...
	ins(mint, 1, 300, 2, false) // ... to 300
	ins(mint, 2, 300, 1, false) // a tie with owner 1: owner DESC breaks it
	ins(mint, 3, 18446744073709551615, 1, false)
	ins(mint, 4, 0, 3, false) // emptied
	ins(mint, 9, 7, 1, false)
	ins(6, 1, 1000, 1, false) // another mint
	type ob struct {
		owner   byte
		balance uint64
	}
	tests := []struct {
		name string
		mint byte
		page qc.HolderPage
		want []ob
	}{
		{"all", mint, qc.HolderPage{Limit: 10}, []ob{{3, 18446744073709551615}, {2, 300}, {1, 300}, {9, 7}}},
		{"with zero", mint, qc.HolderPage{Limit: 10, WithZero: true}, []ob{{3, 18446744073709551615}, {2, 300}, {1, 300}, {9, 7}, {4, 0}}},
		{"limit", mint, qc.HolderPage{Limit: 2}, []ob{{3, 18446744073709551615}, {2, 300}}},
		{"after the tie's first", mint, qc.HolderPage{Limit: 10, After: &qc.HolderCursor{Balance: 300, Owner: key(2)}}, []ob{{1, 300}, {9, 7}}},
		{"after the tie", mint, qc.HolderPage{Limit: 10, After: &qc.HolderCursor{Balance: 300, Owner: key(1)}}, []ob{{9, 7}}},
		{"after the max", mint, qc.HolderPage{Limit: 1, After: &qc.HolderCursor{Balance: 18446744073709551615, Owner: key(3)}}, []ob{{2, 300}}},
		{"after the last", mint, qc.HolderPage{Limit: 10, After: &qc.HolderCursor{Balance: 7, Owner: key(9)}}, []ob{}},
		{"unknown mint", 77, qc.HolderPage{Limit: 10}, []ob{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := qc.MintHolders(ctx, s, key(tt.mint), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			out := []ob{}
			for _, h := range got {
				out = append(out, ob{h.Owner[0], h.Balance})
			}
			if !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got %v, want %v", out, tt.want)
			}
		})
	}
}

func TestOwnerLamports(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for i, lam := range []uint64{5, 7, 11} {
		a := qc.Account{Hash: key(byte(i + 1)), Owner: key(40), Lamports: lam}
		insertAccount(t, s, "compressed_by_owner", a, false, "", "", nil)
	}
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(2), Owner: key(40), Lamports: 7}, true, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(9), Owner: key(41), Lamports: 1000}, false, "", "", nil)
	// Created at slot 20: counted only once the answer's slot covers it.
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(10), Owner: key(40), Lamports: 100, SlotCreated: 20}, false, "", "", nil)
	for _, tt := range []struct {
		owner byte
		asOf  uint64
		want  uint64
	}{{40, 19, 16}, {40, 20, 116}, {41, 19, 1000}, {42, 19, 0}} {
		got, err := qc.OwnerLamports(ctx, s, key(tt.owner), tt.asOf)
		if err != nil || got != tt.want {
			t.Errorf("owner %d as of %d: %d, %v; want %d", tt.owner, tt.asOf, got, err, tt.want)
		}
	}
}
