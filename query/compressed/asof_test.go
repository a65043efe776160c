package compressed_test

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// Reads as of a slot: an account created later is absent, one spent later
// is unspent, and no transaction of a later slot is listed.
func TestReadsAsOf(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	create := func(h byte, addr compressed.Key, slot uint64, g byte) {
		exec(t, s, `INSERT INTO compressed_accounts (hash, slot_created, sig_prefix, address)
			VALUES ({h:FixedString(32)}, {s:UInt64}, `+schema.SigPrefix("{g:FixedString(64)}")+`, {a:Nullable(FixedString(32))})`,
			store.Params{"h": raw(key(h)), "s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g)), "a": raw(addr)})
		exec(t, s, "INSERT INTO compression_signatures (slot, signature, block_time) VALUES ({s:UInt64}, {g:FixedString(64)}, 3)",
			store.Params{"s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g))})
	}
	addr, other := key(80), key(81)
	create(1, addr, 10, 1)
	create(2, addr, 12, 2) // the transaction spending 1
	create(3, other, 13, 3)
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature) VALUES ({h:FixedString(32)}, 12, {g:FixedString(64)})`,
		store.Params{"h": raw(key(1)), "g": string(sigBytes(2))})
	hashes := func(as []compressed.Account) []byte {
		out := []byte{}
		for _, a := range as {
			out = append(out, a.Hash[0])
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		asOf                 *uint64
		byHash, byAddress    []byte
		ofAccount, ofAddress []slotSig
		latest               []slotSig
	}{
		{ptr[uint64](10), []byte{1}, []byte{1}, []slotSig{{10, 1}}, []slotSig{{10, 1}}, []slotSig{{10, 1}}},
		{ptr[uint64](11), []byte{1}, []byte{1}, []slotSig{{10, 1}}, []slotSig{{10, 1}}, []slotSig{{10, 1}}},
		{ptr[uint64](12), []byte{2}, []byte{2}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{12, 2}, {10, 1}}},
		{ptr[uint64](13), []byte{2, 3}, []byte{2}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{13, 3}, {12, 2}, {10, 1}}},
		{nil, []byte{2, 3}, []byte{2}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{12, 2}, {10, 1}}, []slotSig{{13, 3}, {12, 2}, {10, 1}}},
	} {
		name := "newest"
		if c.asOf != nil {
			name = strconv.FormatUint(*c.asOf, 10)
		}
		t.Run(name, func(t *testing.T) {
			got, err := compressed.AccountsByHashesAt(ctx, s, []compressed.Key{key(1), key(2), key(3)}, c.asOf)
			if err != nil || !slices.Equal(hashes(got), c.byHash) {
				t.Errorf("by hash: %v %v, want %v", hashes(got), err, c.byHash)
			}
			got, err = compressed.AccountsByAddressesAt(ctx, s, []compressed.Key{addr}, c.asOf)
			if err != nil || !slices.Equal(hashes(got), c.byAddress) {
				t.Errorf("by address: %v %v, want %v", hashes(got), err, c.byAddress)
			}
			sg, err := compressed.SignaturesForAccountAt(ctx, s, key(1), c.asOf)
			if err != nil || !reflect.DeepEqual(sigs(sg), c.ofAccount) {
				t.Errorf("signatures of account 1: %v %v, want %v", sigs(sg), err, c.ofAccount)
			}
			page := compressed.SigPage{Limit: 10, AsOf: c.asOf}
			sg, err = compressed.SignaturesForAddress(ctx, s, addr, page)
			if err != nil || !reflect.DeepEqual(sigs(sg), c.ofAddress) {
				t.Errorf("signatures of the address: %v %v, want %v", sigs(sg), err, c.ofAddress)
			}
			sg, err = compressed.LatestSignatures(ctx, s, page)
			if err != nil || !reflect.DeepEqual(sigs(sg), c.latest) {
				t.Errorf("latest signatures: %v %v, want %v", sigs(sg), err, c.latest)
			}
		})
	}
}
