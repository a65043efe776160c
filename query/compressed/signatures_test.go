package compressed_test

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

type slotSig struct {
	slot uint64
	sig  byte
}

func sigs(in []compressed.SignatureInfo) []slotSig {
	out := []slotSig{}
	for _, s := range in {
		out = append(out, slotSig{s.Slot, s.Signature[0]})
	}
	return out
}

func TestSignatures(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	rows := []slotSig{{5, 1}, {5, 9}, {7, 3}, {2, 200}, {5, 9}} // the last is a re-ingested duplicate
	for _, r := range rows {
		p := store.Params{"s": strconv.FormatUint(r.slot, 10), "g": string(sigBytes(r.sig)), "o": raw(key(1)), "t": "1700000000"}
		for _, table := range []string{"owner_txs", "token_owner_txs"} {
			exec(t, s, "INSERT INTO "+table+" (owner, slot, sig_prefix) VALUES ({o:FixedString(32)}, {s:UInt64}, "+schema.SigPrefix("{g:FixedString(64)}")+")", p)
		}
		exec(t, s, "INSERT INTO compression_signatures (slot, signature, block_time) VALUES ({s:UInt64}, {g:FixedString(64)}, {t:Int64})", p)
	}
	all := []slotSig{{7, 3}, {5, 9}, {5, 1}, {2, 200}}
	tests := []struct {
		name string
		page compressed.SigPage
		want []slotSig
	}{
		{"all newest first", compressed.SigPage{Limit: 10}, all},
		{"limit", compressed.SigPage{Limit: 2}, all[:2]},
		{"before within a slot", compressed.SigPage{Limit: 10, Before: &compressed.SigCursor{Slot: 5, Signature: sig(9)}}, all[2:]},
		{"before a slot", compressed.SigPage{Limit: 10, Before: &compressed.SigCursor{Slot: 5, Signature: sig(0)}}, all[3:]},
		{"before everything", compressed.SigPage{Limit: 10, Before: &compressed.SigCursor{Slot: 2, Signature: sig(200)}}, []slotSig{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, get := range map[string]func() ([]compressed.SignatureInfo, error){
				"owner": func() ([]compressed.SignatureInfo, error) {
					return compressed.SignaturesForOwner(ctx, s, key(1), tt.page)
				},
				"token owner": func() ([]compressed.SignatureInfo, error) {
					return compressed.SignaturesForTokenOwner(ctx, s, key(1), tt.page)
				},
				"latest": func() ([]compressed.SignatureInfo, error) { return compressed.LatestSignatures(ctx, s, tt.page) },
			} {
				got, err := get()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(sigs(got), tt.want) {
					t.Errorf("%s: %v, want %v", name, sigs(got), tt.want)
				}
				for _, g := range got {
					if g.BlockTime != 1700000000 || g.Signature != sig(g.Signature[0]) {
						t.Errorf("%s: row %+v", name, g)
					}
				}
			}
		})
	}
	if got, err := compressed.SignaturesForOwner(ctx, s, key(2), compressed.SigPage{Limit: 10}); err != nil || len(got) != 0 {
		t.Errorf("unknown owner: %v %v", got, err)
	}
}

func sigBytes(b byte) []byte {
	s := sig(b)
	return s[:]
}

func TestSignaturesForAccountAndAddress(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	ins := func(slot uint64, g byte) {
		exec(t, s, "INSERT INTO compression_signatures (slot, signature, block_time) VALUES ({s:UInt64}, {g:FixedString(64)}, 3)",
			store.Params{"s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g))})
	}
	create := func(h byte, addr *compressed.Key, slot uint64, g byte) {
		exec(t, s, `INSERT INTO compressed_accounts (hash, slot_created, sig_prefix, address)
			VALUES ({h:FixedString(32)}, {s:UInt64}, `+schema.SigPrefix("{g:FixedString(64)}")+`, {a:Nullable(FixedString(32))})`,
			store.Params{"h": raw(key(h)), "s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g)), "a": raw(*addr)})
		ins(slot, g)
	}
	addr := key(80)
	create(1, &addr, 10, 1)
	create(2, &addr, 12, 2)
	other := key(81)
	create(3, &other, 13, 3)
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 12, {g:FixedString(64)})`,
		store.Params{"h": raw(key(1)), "g": string(sigBytes(2))})
	got, err := compressed.SignaturesForAccount(ctx, s, key(1))
	if err != nil || !reflect.DeepEqual(sigs(got), []slotSig{{12, 2}, {10, 1}}) {
		t.Errorf("account 1: %v %v", sigs(got), err)
	}
	got, err = compressed.SignaturesForAccount(ctx, s, key(9))
	if err != nil || len(got) != 0 {
		t.Errorf("unknown account: %v %v", sigs(got), err)
	}
	got, err = compressed.SignaturesForAddress(ctx, s, addr, compressed.SigPage{Limit: 10})
	if err != nil || !reflect.DeepEqual(sigs(got), []slotSig{{12, 2}, {10, 1}}) {
		t.Errorf("address: %v %v", sigs(got), err)
	}
	got, err = compressed.SignaturesForAddress(ctx, s, addr, compressed.SigPage{Limit: 10, Before: &compressed.SigCursor{Slot: 12, Signature: sig(2)}})
	if err != nil || !reflect.DeepEqual(sigs(got), []slotSig{{10, 1}}) {
		t.Errorf("address page 2: %v %v", sigs(got), err)
	}
}
