package compressed_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	qc "github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
)

func spend(t *testing.T, s store.Store, h qc.Key) {
	t.Helper()
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 1, '')`,
		store.Params{"h": raw(h)})
}

func TestAccountsByHashesAndAddresses(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for i := byte(1); i <= 5; i++ {
		a := qc.Account{Hash: key(i), Owner: key(100), Lamports: uint64(i), Address: ptr(key(50 + i))}
		insertAccount(t, s, "compressed_accounts", a, false, "", "", nil)
		if i == 2 {
			insertAccount(t, s, "compressed_accounts", a, false, "", "", nil) // re-ingested
		}
	}
	insertAccount(t, s, "compressed_accounts", qc.Account{Hash: key(6)}, false, "", "", nil) // no address
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
	ks := func(bs []byte, off byte) []qc.Key {
		var out []qc.Key
		for _, b := range bs {
			out = append(out, key(b+off))
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := qc.AccountsByHashes(ctx, s, ks(tt.keys, 0))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("by hash: %v, want %v", hashes(got), tt.want)
			}
			if tt.name == "one" {
				return
			}
			got, err = qc.AccountsByAddresses(ctx, s, ks(tt.keys, 50))
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
		a := qc.Account{Hash: key(h), Owner: key(owner)}
		if d != nil {
			a.Data = &qc.AccountData{Discriminator: 1, Data: d}
		}
		insertAccount(t, s, "compressed_by_owner", a, false, "", "", nil)
	}
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(1), Owner: key(owner)}, false, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(1), Owner: key(owner)}, true, "", "", nil)
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(2), Owner: key(owner + 1)}, false, "", "", nil)
	// Created at slot 50: beyond an answer stamped with slot 49.
	insertAccount(t, s, "compressed_by_owner", qc.Account{Hash: key(100), Owner: key(owner), SlotCreated: 50}, false, "", "", nil)
	after := key(7)
	slot49, slot50 := uint64(49), uint64(50)
	tests := []struct {
		name string
		page qc.OwnerPage
		want []byte
	}{
		{"all", qc.OwnerPage{Limit: 10}, []byte{4, 7, 9, 100, 200}},
		{"as of slot 49", qc.OwnerPage{Limit: 10, AsOf: &slot49}, []byte{4, 7, 9, 200}},
		{"as of slot 50", qc.OwnerPage{Limit: 10, AsOf: &slot50}, []byte{4, 7, 9, 100, 200}},
		{"limit", qc.OwnerPage{Limit: 1}, []byte{4}},
		{"after", qc.OwnerPage{Limit: 10, After: &after, AsOf: &slot49}, []byte{9, 200}},
		{"memcmp", qc.OwnerPage{Limit: 10, Filters: []qc.Memcmp{{Offset: 1, Bytes: []byte{2, 3}}}}, []byte{9, 200}},
		{"two memcmp", qc.OwnerPage{Limit: 10, Filters: []qc.Memcmp{{Offset: 1, Bytes: []byte{2}}, {Offset: 0, Bytes: []byte{7}}}}, []byte{200}},
		{"memcmp past the end", qc.OwnerPage{Limit: 10, Filters: []qc.Memcmp{{Offset: 3, Bytes: []byte{4, 5}}}}, []byte{}},
		{"memcmp with special bytes", qc.OwnerPage{Limit: 10, Filters: []qc.Memcmp{{Offset: 0, Bytes: []byte{'\\', 0, '\''}}}}, []byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := qc.AccountsByOwner(ctx, s, key(owner), tt.page)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(hashes(got), tt.want) {
				t.Errorf("%v, want %v", hashes(got), tt.want)
			}
		})
	}
}
