package compressed_test

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
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
		page  compressed.BalancePage
		want  []mb
	}{
		{"all", 1, compressed.BalancePage{Limit: 10}, []mb{{3, 5}, {9, 70}, {120, 1}}},
		{"with zero", 1, compressed.BalancePage{Limit: 10, WithZero: true}, []mb{{3, 5}, {9, 70}, {120, 1}, {200, 0}}},
		{"limit", 1, compressed.BalancePage{Limit: 2}, []mb{{3, 5}, {9, 70}}},
		{"after", 1, compressed.BalancePage{Limit: 10, AfterMint: &mint9}, []mb{{120, 1}}},
		{"mint", 1, compressed.BalancePage{Limit: 10, Mint: &mint9}, []mb{{9, 70}}},
		{"mint and after it", 1, compressed.BalancePage{Limit: 10, Mint: &mint9, AfterMint: &mint9}, []mb{}},
		{"other owner", 2, compressed.BalancePage{Limit: 10}, []mb{{3, 8}}},
		{"unknown owner", 7, compressed.BalancePage{Limit: 10}, []mb{}},
		{"zero limit", 1, compressed.BalancePage{}, []mb{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.TokenBalancesByOwner(ctx, s, key(tt.owner), tt.page)
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
		page compressed.HolderPage
		want []ob
	}{
		{"all", mint, compressed.HolderPage{Limit: 10}, []ob{{3, 18446744073709551615}, {2, 300}, {1, 300}, {9, 7}}},
		{"with zero", mint, compressed.HolderPage{Limit: 10, WithZero: true}, []ob{{3, 18446744073709551615}, {2, 300}, {1, 300}, {9, 7}, {4, 0}}},
		{"limit", mint, compressed.HolderPage{Limit: 2}, []ob{{3, 18446744073709551615}, {2, 300}}},
		{"after the tie's first", mint, compressed.HolderPage{Limit: 10, After: &compressed.HolderCursor{Balance: 300, Owner: key(2)}}, []ob{{1, 300}, {9, 7}}},
		{"after the tie", mint, compressed.HolderPage{Limit: 10, After: &compressed.HolderCursor{Balance: 300, Owner: key(1)}}, []ob{{9, 7}}},
		{"after the max", mint, compressed.HolderPage{Limit: 1, After: &compressed.HolderCursor{Balance: 18446744073709551615, Owner: key(3)}}, []ob{{2, 300}}},
		{"after the last", mint, compressed.HolderPage{Limit: 10, After: &compressed.HolderCursor{Balance: 7, Owner: key(9)}}, []ob{}},
		{"unknown mint", 77, compressed.HolderPage{Limit: 10}, []ob{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.MintHolders(ctx, s, key(tt.mint), tt.page)
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
		a := compressed.Account{Hash: key(byte(i + 1)), Owner: key(40), Lamports: lam}
		insertAccount(t, s, "compressed_by_owner", a, false, "", "", nil)
	}
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(2), Owner: key(40), Lamports: 7}, true, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(9), Owner: key(41), Lamports: 1000}, false, "", "", nil)
	// Created at slot 20: counted only once the answer's slot covers it.
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(10), Owner: key(40), Lamports: 100, SlotCreated: 20}, false, "", "", nil)
	for _, tt := range []struct {
		owner byte
		asOf  uint64
		want  uint64
	}{{40, 19, 16}, {40, 20, 116}, {41, 19, 1000}, {42, 19, 0}} {
		got, err := compressed.OwnerLamports(ctx, s, key(tt.owner), tt.asOf)
		if err != nil || got != tt.want {
			t.Errorf("owner %d as of %d: %d, %v; want %d", tt.owner, tt.asOf, got, err, tt.want)
		}
	}
}

// TestMintHoldersChurn checks the two-step page read against FINAL over
// the whole mint when stale rows (live-flagged rows whose holder moved on,
// not merged away: merges are stopped) crowd the top of the range, more of
// them than a page's slack, so the range is widened.
func TestMintHoldersChurn(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	exec(t, s, `SYSTEM STOP MERGES mint_holders`, nil)
	const mint = 8
	// Owners 1..60 held 1000+o; owners 1..50 then moved to o (a tombstone
	// and a live row each, a later version), in three inserts.
	exec(t, s, `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
		SELECT {m:FixedString(32)}, 1000 + number, toFixedString(concat(char(number), repeat('\0', 31)), 32), 1, 0
		FROM numbers(1, 60)`, store.Params{"m": raw(key(mint))})
	exec(t, s, `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
		SELECT {m:FixedString(32)}, 1000 + number, toFixedString(concat(char(number), repeat('\0', 31)), 32), 2, 1
		FROM numbers(1, 50)`, store.Params{"m": raw(key(mint))})
	exec(t, s, `INSERT INTO mint_holders (mint, balance, owner, version, is_deleted)
		SELECT {m:FixedString(32)}, number, toFixedString(concat(char(number), repeat('\0', 31)), 32), 2, 0
		FROM numbers(1, 50)`, store.Params{"m": raw(key(mint))})
	reference := func(p compressed.HolderPage) []compressed.Holder {
		q := `SELECT owner, balance FROM mint_holders FINAL WHERE mint = {m:FixedString(32)} AND NOT is_deleted`
		params := store.Params{"m": raw(key(mint)), "limit": strconv.FormatUint(p.Limit, 10)}
		if p.After != nil {
			q += ` AND (balance < {ab:UInt64} OR (balance = {ab:UInt64} AND owner < {ao:FixedString(32)}))`
			params["ab"], params["ao"] = strconv.FormatUint(p.After.Balance, 10), raw(p.After.Owner)
		}
		res, err := s.Query(ctx, q+` ORDER BY balance DESC, owner DESC LIMIT {limit:UInt64}`, params)
		if err != nil {
			t.Fatal(err)
		}
		out := []compressed.Holder{}
		for _, r := range res.Rows {
			var h compressed.Holder
			copy(h.Owner[:], r[0].(string))
			h.Balance = r[1].(uint64)
			out = append(out, h)
		}
		return out
	}
	for _, limit := range []uint64{1, 5, 9, 1000} {
		// Every page, cursor to cursor, to the end.
		p := compressed.HolderPage{Limit: limit}
		for pages := 0; ; pages++ {
			got, err := compressed.MintHolders(ctx, s, key(mint), p)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				got = []compressed.Holder{}
			}
			if want := reference(p); !reflect.DeepEqual(got, want) {
				t.Fatalf("limit %d, page %d: got %v, want %v", limit, pages, got, want)
			}
			if uint64(len(got)) < limit {
				if pages == 0 && limit < 60 {
					t.Fatalf("limit %d: the first page is short", limit)
				}
				break
			}
			last := got[len(got)-1]
			p.After = &compressed.HolderCursor{Balance: last.Balance, Owner: last.Owner}
		}
	}
	// The top ten holders are 60..51 at 1060..1051, past fifty stale rows'
	// worth of the range.
	got, err := compressed.MintHolders(ctx, s, key(mint), compressed.HolderPage{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || got[0].Owner[0] != 60 || got[0].Balance != 1060 || got[9].Owner[0] != 51 {
		t.Fatalf("top ten: %v", got)
	}
}
