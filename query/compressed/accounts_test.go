package compressed_test

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func spend(t *testing.T, s arrowstore.Store, h compressed.Key) {
	t.Helper()
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 1, '')`,
		store.Params{"h": raw(h)})
}

func TestAccountsByHashesAndAddresses(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for i := byte(1); i <= 5; i++ {
		a := compressed.Account{Hash: key(i), Owner: key(100), Lamports: uint64(i), Address: ptr(key(50 + i))}
		insertAccount(t, s, "compressed_accounts", a, false, "", "", nil)
		if i == 2 {
			insertAccount(t, s, "compressed_accounts", a, false, "", "", nil) // re-ingested
		}
	}
	insertAccount(t, s, "compressed_accounts", compressed.Account{Hash: key(6)}, false, "", "", nil) // no address
	spend(t, s, key(3))
	tests := []struct {
		name string
		keys []byte
		want []byte
	}{
		{"some", []byte{4, 1, 2}, []byte{1, 2, 4}},
		{"spent and unknown dropped", []byte{3, 9, 5}, []byte{5}},
		{"one", []byte{6}, []byte{6}},
		{"none", nil, []byte{}},
	}
	ks := func(bs []byte, off byte) []compressed.Key {
		var out []compressed.Key
		for _, b := range bs {
			out = append(out, key(b+off))
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.AccountsByHashes(ctx, s, ks(tt.keys, 0))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("by hash: %v, want %v", hashes(got), tt.want)
			}
			if tt.name == "one" {
				return
			}
			got, err = compressed.AccountsByAddresses(ctx, s, ks(tt.keys, 50))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("by address: %v, want %v", hashes(got), tt.want)
			}
		})
	}
}

func TestAccountsByOwner(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	const owner = 30
	data := map[byte][]byte{9: {1, 2, 3, 4}, 4: {1, 9, 3}, 200: {7, 2, 3, 4}, 7: nil}
	for h, d := range data {
		a := compressed.Account{Hash: key(h), Owner: key(owner)}
		if d != nil {
			a.Data = &compressed.AccountData{Discriminator: 1, Data: d}
		}
		insertAccount(t, s, "compressed_by_owner", a, false, "", "", nil)
	}
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(1), Owner: key(owner)}, false, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(1), Owner: key(owner)}, true, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(2), Owner: key(owner + 1)}, false, "", "", nil)
	// Created at slot 50: beyond an answer stamped with slot 49.
	insertAccount(t, s, "compressed_by_owner", compressed.Account{Hash: key(100), Owner: key(owner), SlotCreated: 50}, false, "", "", nil)
	after := key(7)
	slot49, slot50 := uint64(49), uint64(50)
	tests := []struct {
		name string
		page compressed.OwnerPage
		want []byte
	}{
		{"all", compressed.OwnerPage{Limit: 10}, []byte{4, 7, 9, 100, 200}},
		{"as of slot 49", compressed.OwnerPage{Limit: 10, AsOf: &slot49}, []byte{4, 7, 9, 200}},
		{"as of slot 50", compressed.OwnerPage{Limit: 10, AsOf: &slot50}, []byte{4, 7, 9, 100, 200}},
		{"limit", compressed.OwnerPage{Limit: 1}, []byte{4}},
		{"after", compressed.OwnerPage{Limit: 10, After: &after, AsOf: &slot49}, []byte{9, 200}},
		{"memcmp", compressed.OwnerPage{Limit: 10, Filters: []compressed.Memcmp{{Offset: 1, Bytes: []byte{2, 3}}}}, []byte{9, 200}},
		{"two memcmp", compressed.OwnerPage{Limit: 10, Filters: []compressed.Memcmp{{Offset: 1, Bytes: []byte{2}}, {Offset: 0, Bytes: []byte{7}}}}, []byte{200}},
		{"memcmp past the end", compressed.OwnerPage{Limit: 10, Filters: []compressed.Memcmp{{Offset: 3, Bytes: []byte{4, 5}}}}, []byte{}},
		{"memcmp with special bytes", compressed.OwnerPage{Limit: 10, Filters: []compressed.Memcmp{{Offset: 0, Bytes: []byte{'\\', 0, '\''}}}}, []byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.AccountsByOwner(ctx, s, key(owner), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("%v, want %v", hashes(got), tt.want)
			}
		})
	}
}

// TestTokenProgramAccounts checks the token program's listing: its token
// accounts come from compressed_accounts (the view keeps them out of
// compressed_by_owner), its other accounts from compressed_by_owner, merged
// in leaf index order (the same as hash order here) and paged; spends
// count up to the answer's slot.
func TestTokenProgramAccounts(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	program := compressed.Key(light.CompressedTokenProgram())
	// Token accounts 10..209 (hash first byte), every third spent at slot 5;
	// 61 and 62 spent only at slot 30.
	spentAt := map[byte]uint64{61: 30, 62: 30}
	for h := 10; h < 210; h++ {
		a := tokenAccount(byte(h%7), byte(h%3), byte(h), 10)
		a.Owner, a.Lamports = program, uint64(h)
		insertAccount(t, s, "compressed_accounts", a, false, "", "", nil)
		if h%3 == 0 {
			spentAt[byte(h)] = 5
		}
	}
	// The re-ingested account stays in a part of its own, a duplicate row
	// next to the first in hash order.
	exec(t, s, `OPTIMIZE TABLE compressed_accounts FINAL`, nil)
	exec(t, s, `SYSTEM STOP MERGES compressed_accounts`, nil)
	insertAccount(t, s, "compressed_accounts", func() compressed.Account { // re-ingested
		a := tokenAccount(1, 1, 11, 10)
		a.Owner, a.Lamports = program, 11
		return a
	}(), false, "", "", nil)
	for h, slot := range spentAt {
		exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, {s:UInt64}, '')`,
			store.Params{"h": raw(key(h)), "s": strconv.FormatUint(slot, 10)})
	}
	// Two accounts of the program that are not token accounts, and one of
	// another owner.
	for _, h := range []byte{5, 215} {
		insertAccount(t, s, "compressed_accounts", compressed.Account{Hash: key(h), Owner: program, Lamports: 1000, LeafIndex: uint64(h)}, false, "", "", nil)
	}
	insertAccount(t, s, "compressed_accounts", compressed.Account{Hash: key(220), Owner: key(3), Lamports: 1}, false, "", "", nil)

	res, err := s.Query(ctx, `SELECT count() FROM compressed_by_owner WHERE is_token`, nil)
	if err != nil || res.Rows[0][0].(uint64) != 0 {
		t.Fatalf("token rows in compressed_by_owner: %v, %v", res.Rows, err)
	}
	want := func(asOf uint64) []byte {
		out := []byte{5} // not a token account
		for h := 10; h < 210; h++ {
			if slot, ok := spentAt[byte(h)]; !ok || slot > asOf {
				out = append(out, byte(h))
			}
		}
		return append(out, 215)
	}
	for _, tt := range []struct {
		name  string
		asOf  uint64
		limit uint64
	}{{"whole", 40, 1000}, {"pages of 7", 40, 7}, {"pages of 1", 20, 1}, {"pages of 64", 20, 64}} {
		t.Run(tt.name, func(t *testing.T) {
			var got []byte
			var after *compressed.Key
			for pages := 0; pages < 300; pages++ {
				page, err := compressed.AccountsByOwner(ctx, s, program, compressed.OwnerPage{Limit: tt.limit, After: after, AsOf: &tt.asOf})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, hashes(page)...)
				if uint64(len(page)) < tt.limit {
					break
				}
				after = &page[len(page)-1].Hash
			}
			if w := want(tt.asOf); !reflect.DeepEqual(got, w) {
				t.Errorf("got %v\nwant %v", got, w)
			}
		})
	}
	// Memcmp applies to the token rows too: data starts with the mint,
	// key(h % 3) (the re-ingested copy of 11 has another, but one copy
	// matching lists it once).
	page, err := compressed.AccountsByOwner(ctx, s, program, compressed.OwnerPage{Limit: 3, Filters: []compressed.Memcmp{{Offset: 0, Bytes: []byte{2}}}})
	if err != nil || !reflect.DeepEqual(hashes(page), []byte{11, 14, 17}) {
		t.Errorf("memcmp: %v, %v", hashes(page), err)
	}
	// Lamports: unspent token accounts as of the slot, plus the two others.
	for _, asOf := range []uint64{20, 40} {
		var sum uint64
		for _, h := range want(asOf) {
			if h == 5 || h == 215 {
				sum += 1000
			} else {
				sum += uint64(h)
			}
		}
		got, err := compressed.OwnerLamports(ctx, s, program, asOf)
		if err != nil || got != sum {
			t.Errorf("lamports as of %d: %d, %v; want %d", asOf, got, err, sum)
		}
	}
}

// TestTokenProgramAccountsSpentRun pages the token program's accounts
// across a run of spent accounts longer than several candidate windows:
// every unspent account is listed once, in order, and none is skipped
// where one window ends and the next begins.
func TestTokenProgramAccountsSpentRun(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	program := compressed.Key(light.CompressedTokenProgram())
	// Account n's hash is n as two big-endian bytes, then zeros: ordered
	// by n. One insert each for the 600 accounts and their spends.
	const hashOf = `toFixedString(unhex(concat(leftPad(hex(number), 4, '0'), repeat('00', 30))), 32)`
	exec(t, s, `INSERT INTO compressed_accounts (hash, owner, is_token, amount)
		SELECT `+hashOf+`, {owner:FixedString(32)}, true, 10 FROM numbers(600)`, store.Params{"owner": raw(program)})
	// Spent: 0..499 but for 0, 97, 194, 291, 388 and 485.
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature)
		SELECT `+hashOf+`, 1, '' FROM numbers(500) WHERE number % 97 != 0`, nil)
	var want []int
	for n := 0; n < 600; n++ {
		if n >= 500 || n%97 == 0 {
			want = append(want, n)
		}
	}
	for _, limit := range []uint64{1, 3, 1000} {
		var got []int
		var after *compressed.Key
		for pages := 0; pages < 200; pages++ {
			page, err := compressed.AccountsByOwner(ctx, s, program, compressed.OwnerPage{Limit: limit, After: after})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range page {
				got = append(got, int(a.Hash[0])<<8|int(a.Hash[1]))
			}
			if uint64(len(page)) < limit {
				break
			}
			after = &page[len(page)-1].Hash
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("limit %d: got %v\nwant %v", limit, got, want)
		}
	}
}

// TestTokenProgramMemcmp filters the token program's accounts whose data is
// not stored (the ingester stores none when the token columns encode back
// to it): memcmp sees the data the answer carries, rebuilt from the token
// columns, at every offset of the layout.
func TestTokenProgramMemcmp(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	program := compressed.Key(light.CompressedTokenProgram())
	type acct struct {
		hash, mint, owner byte
		amount            uint64
		delegate          *compressed.Key
		state             uint8
		tlv               []byte
	}
	accts := []acct{
		{hash: 1, mint: 40, owner: 60, amount: 5},
		{hash: 2, mint: 40, owner: 61, amount: 1 << 40, delegate: ptr(key(90)), state: 1},
		{hash: 3, mint: 41, owner: 60, amount: 5, tlv: []byte{7, 0, 0}},
	}
	for _, a := range accts {
		del, tlv := "NULL", "NULL"
		p := store.Params{"h": raw(key(a.hash)), "o": raw(program), "m": raw(key(a.mint)), "to": raw(key(a.owner)),
			"amt": strconv.FormatUint(a.amount, 10), "st": strconv.Itoa(int(a.state))}
		if a.delegate != nil {
			del, p["del"] = "{del:FixedString(32)}", raw(*a.delegate)
		}
		if a.tlv != nil {
			tlv, p["tlv"] = "{tlv:String}", string(a.tlv)
		}
		exec(t, s, `INSERT INTO compressed_accounts (hash, owner, discriminator, data, is_token, mint, token_owner, amount, delegate, token_state, tlv)
			VALUES ({h:FixedString(32)}, {o:FixedString(32)}, 2, NULL, true, {m:FixedString(32)}, {to:FixedString(32)},
			{amt:UInt64}, `+del+`, {st:UInt8}, `+tlv+`)`, p)
	}
	m40, o60, d90 := key(40), key(60), key(90)
	tests := []struct {
		name    string
		filters []compressed.Memcmp
		want    []byte
	}{
		{"mint", []compressed.Memcmp{{Offset: 0, Bytes: m40[:]}}, []byte{1, 2}},
		{"owner", []compressed.Memcmp{{Offset: 32, Bytes: o60[:]}}, []byte{1, 3}},
		{"mint and owner", []compressed.Memcmp{{Offset: 0, Bytes: m40[:]}, {Offset: 32, Bytes: o60[:]}}, []byte{1}},
		{"mint's tail", []compressed.Memcmp{{Offset: 31, Bytes: m40[31:]}}, []byte{1, 2, 3}},
		{"across mint and owner", []compressed.Memcmp{{Offset: 30, Bytes: append(m40[30:], o60[:2]...)}}, []byte{1, 3}},
		{"owner's middle", []compressed.Memcmp{{Offset: 40, Bytes: o60[8:20]}}, []byte{1, 2, 3}},
		{"owner's first byte", []compressed.Memcmp{{Offset: 32, Bytes: []byte{61}}}, []byte{2}},
		{"across owner and amount", []compressed.Memcmp{{Offset: 62, Bytes: append(o60[30:], 5, 0)}}, []byte{1, 3}},
		{"empty bytes", []compressed.Memcmp{{Offset: 10, Bytes: []byte{}}}, []byte{1, 2, 3}},
		{"amount, all eight bytes", []compressed.Memcmp{{Offset: 64, Bytes: []byte{5, 0, 0, 0, 0, 0, 0, 0}}}, []byte{1, 3}},
		{"no delegate, then state 0", []compressed.Memcmp{{Offset: 72, Bytes: []byte{0, 0}}}, []byte{1, 3}},
		{"delegate", []compressed.Memcmp{{Offset: 72, Bytes: append([]byte{1}, d90[:]...)}}, []byte{2}},
		{"frozen after a delegate", []compressed.Memcmp{{Offset: 105, Bytes: []byte{1, 0}}}, []byte{2}},
		{"tlv", []compressed.Memcmp{{Offset: 74, Bytes: []byte{1, 7, 0, 0}}}, []byte{3}},
		{"past the end of the others", []compressed.Memcmp{{Offset: 76, Bytes: []byte{0, 0}}}, []byte{3}},
		{"nothing", []compressed.Memcmp{{Offset: 0, Bytes: []byte{41, 1}}}, []byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compressed.AccountsByOwner(ctx, s, program, compressed.OwnerPage{Limit: 10, Filters: tt.filters})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Fatalf("%v, want %v", hashes(got), tt.want)
			}
			// The filter saw the data the answer carries.
			for _, a := range got {
				for _, f := range tt.filters {
					d := a.Data.Data
					if end := f.Offset + uint64(len(f.Bytes)); end > uint64(len(d)) || string(d[f.Offset:end]) != string(f.Bytes) {
						t.Errorf("account %d: data %x does not hold %x at %d", a.Hash[0], d, f.Bytes, f.Offset)
					}
				}
			}
		})
	}
}

// TestTokenOwnerFilter: a filter naming a whole token owner reads the
// program's accounts from token_accounts (an account stored there alone is
// found; a filter on 31 of the owner's bytes does not see it), and answers
// as the scan does: spends checked in compressed_spent as of the page's
// slot, pages by hash.
func TestTokenOwnerFilter(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	program := compressed.Key(light.CompressedTokenProgram())
	ins := func(table string, hash, owner byte, slot uint64) {
		exec(t, s, `INSERT INTO `+table+` (hash, owner, slot_created, discriminator, is_token, mint, token_owner, amount)
			VALUES ({h:FixedString(32)}, {o:FixedString(32)}, {s:UInt64}, 2, true, {m:FixedString(32)}, {to:FixedString(32)}, 7)`,
			store.Params{"h": raw(key(hash)), "o": raw(program), "s": strconv.FormatUint(slot, 10), "m": raw(key(40)), "to": raw(key(owner))})
	}
	ins("compressed_accounts", 1, 60, 1)
	ins("compressed_accounts", 2, 61, 1)
	ins("compressed_accounts", 3, 60, 1)
	ins("compressed_accounts", 3, 60, 1) // re-ingested
	ins("compressed_accounts", 5, 60, 1)
	ins("token_accounts", 4, 60, 1) // in token_accounts only
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 9, '')`, store.Params{"h": raw(key(5))})
	o60, m40 := key(60), key(40)
	whole := []compressed.Memcmp{{Offset: 32, Bytes: o60[:]}}
	tests := []struct {
		name    string
		filters []compressed.Memcmp
		asOf    *uint64
		want    []byte
	}{
		{"whole owner", whole, nil, []byte{1, 3, 4}},
		{"before the spend", whole, ptr(uint64(8)), []byte{1, 3, 4, 5}},
		{"with a mint filter too", append([]compressed.Memcmp{{Offset: 0, Bytes: m40[:]}}, whole...), nil, []byte{1, 3, 4}},
		{"31 bytes: the scan", []compressed.Memcmp{{Offset: 32, Bytes: o60[:31]}}, nil, []byte{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, limit := range []uint64{1, 2, 10} {
				var got []compressed.Account
				p := compressed.OwnerPage{Limit: limit, Filters: tt.filters, AsOf: tt.asOf}
				for {
					page, err := compressed.AccountsByOwner(ctx, s, program, p)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, page...)
					if uint64(len(page)) < limit {
						break
					}
					p.After = &page[len(page)-1].Hash
				}
				if h := hashes(got); !reflect.DeepEqual(h, tt.want) {
					t.Errorf("limit %d: %v, want %v", limit, h, tt.want)
				}
			}
		})
	}
}

// TestAccountsByOwnerPhotonOrder: an owner with accounts in several
// trees is listed as Photon lists it, by leaf index then hash whatever the
// tree. The cursor is the last hash, as Photon's, and the next page
// continues after that account in this order, so pages of any size make
// up the whole list (Photon keeps the hashes greater than the cursor,
// which skips some here); a cursor naming no account of the owner keeps
// the greater hashes, as Photon's. The token program's accounts, read
// from the other table, list and page the same way.
func TestAccountsByOwnerPhotonOrder(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	const owner = 40
	program := compressed.Key(light.CompressedTokenProgram())
	// hash: tree, leaf index.
	accounts := map[byte][2]byte{
		90: {1, 0}, 20: {2, 0}, 50: {3, 0}, // three trees at leaf 0
		10: {1, 3}, 80: {2, 1}, 30: {3, 2}, 60: {1, 2}, 70: {2, 9},
	}
	for h, tl := range accounts {
		a := compressed.Account{Hash: key(h), Owner: key(owner), Tree: key(tl[0]), LeafIndex: uint64(tl[1])}
		insertAccount(t, s, "compressed_accounts", a, false, "", "", nil)
		// The same layout under the token program, in other hashes: token
		// accounts (read from compressed_accounts) and other accounts
		// (from compressed_by_owner) mixed.
		a.Hash, a.Owner = key(h+1), program
		if h%20 == 0 {
			insertAccount(t, s, "compressed_accounts", a, false, "", "", nil)
		} else {
			ta := tokenAccount(1, 2, h+1, 5)
			ta.Owner, ta.Tree, ta.LeafIndex = program, a.Tree, a.LeafIndex
			insertAccount(t, s, "compressed_accounts", ta, false, "", "", nil)
		}
	}
	whole := []byte{20, 50, 90, 80, 30, 60, 10, 70}
	for _, tt := range []struct {
		name  string
		after byte // 0: none
		limit uint64
		want  []byte
	}{
		{"whole", 0, 100, whole},
		{"first page", 0, 3, []byte{20, 50, 90}},
		{"after 30", 30, 100, []byte{60, 10, 70}},
		{"after 60, limit 2", 60, 2, []byte{10, 70}},
		{"after 90", 90, 2, []byte{80, 30}},
		{"after no account", 55, 100, []byte{90, 80, 60, 70}},
	} {
		for _, who := range []struct {
			name  string
			owner compressed.Key
			shift byte
		}{{"owner", key(owner), 0}, {"token program", program, 1}} {
			t.Run(tt.name+"/"+who.name, func(t *testing.T) {
				page := compressed.OwnerPage{Limit: tt.limit}
				if tt.after != 0 {
					c := key(tt.after + who.shift)
					page.After = &c
				}
				got, err := compressed.AccountsByOwner(ctx, s, who.owner, page)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]byte, len(tt.want))
				for i, h := range tt.want {
					want[i] = h + who.shift
				}
				if !reflect.DeepEqual(hashes(got), want) {
					t.Errorf("%v, want %v", hashes(got), want)
				}
			})
		}
	}
	// Pages of every size make up the whole list.
	for limit := uint64(1); limit <= 8; limit++ {
		var got []byte
		var after *compressed.Key
		for range 20 {
			page, err := compressed.AccountsByOwner(ctx, s, key(owner), compressed.OwnerPage{Limit: limit, After: after})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, hashes(page)...)
			if uint64(len(page)) < limit {
				break
			}
			after = &page[len(page)-1].Hash
		}
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("pages of %d: %v, want %v", limit, got, whole)
		}
	}
}
