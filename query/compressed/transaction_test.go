package compressed_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// insertTx writes a transactions row; vote and failed are optional.
func insertTx(t *testing.T, s arrowstore.Store, slot uint64, g byte, vote bool, errJSON *string) {
	t.Helper()
	p := store.Params{
		"s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g)), "v": strconv.FormatBool(vote),
		"raw": `{"slot":` + strconv.FormatUint(slot+100, 10) + `,"sig":` + strconv.Itoa(int(g)) + `}`,
	}
	e := "NULL"
	if errJSON != nil {
		e, p["e"] = "{e:String}", *errJSON
	}
	exec(t, s, `INSERT INTO transactions (slot, signature, block_time, failed, err, is_vote, raw)
		VALUES ({s:UInt64}, {g:FixedString(64)}, 1700000000, `+strconv.FormatBool(errJSON != nil)+`, `+e+`, {v:Bool}, {raw:String})`, p)
}

// insertTxAccount writes an output of transaction g at slot.
func insertTxAccount(t *testing.T, s arrowstore.Store, hash byte, leaf, slot uint64, g byte) {
	t.Helper()
	exec(t, s, `INSERT INTO compressed_accounts (hash, tree, leaf_index, seq, slot_created, sig_prefix, owner, lamports)
		VALUES ({h:FixedString(32)}, {tr:FixedString(32)}, {l:UInt64}, {l:UInt64} + 1, {s:UInt64}, `+schema.SigPrefix("{g:FixedString(64)}")+`, {o:FixedString(32)}, 5)`,
		store.Params{"h": raw(key(hash)), "tr": raw(key(200)), "l": strconv.FormatUint(leaf, 10),
			"s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g)), "o": raw(key(1))})
}

func insertTxSpent(t *testing.T, s arrowstore.Store, hash byte, slot uint64, g byte, nullifier *compressed.Key) {
	t.Helper()
	p := store.Params{"h": raw(key(hash)), "s": strconv.FormatUint(slot, 10), "g": string(sigBytes(g))}
	n := "NULL"
	if nullifier != nil {
		n, p["n"] = "{n:FixedString(32)}", raw(*nullifier)
	}
	exec(t, s, `INSERT INTO compressed_spent (hash, slot, signature, nullifier, tx_hash)
		VALUES ({h:FixedString(32)}, {s:UInt64}, {g:FixedString(64)}, `+n+`, `+n+`)`, p)
}

func TestTransactionBySignature(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	insertTx(t, s, 4, 1, false, nil)
	insertTx(t, s, 5, 2, false, nil)
	insertTx(t, s, 5, 2, false, nil) // re-ingested
	insertTxAccount(t, s, 10, 0, 4, 1)
	insertTxAccount(t, s, 12, 2, 5, 2)
	insertTxAccount(t, s, 11, 1, 5, 2)
	insertTxAccount(t, s, 11, 1, 5, 2) // re-ingested
	insertTxSpent(t, s, 10, 5, 2, nil)
	batched := key(77)
	insertTxAccount(t, s, 13, 3, 4, 1)
	insertTxSpent(t, s, 13, 5, 2, &batched)

	type closed struct {
		hash, nullifier byte
	}
	tests := []struct {
		name   string
		sig    byte
		raw    string
		opened []byte // hash first bytes, by leaf
		closed []closed
	}{
		{"creates only", 1, `{"slot":104,"sig":1}`, []byte{10, 13}, nil},
		{"spends and creates", 2, `{"slot":105,"sig":2}`, []byte{11, 12}, []closed{{10, 0}, {13, 77}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx, err := compressed.TransactionBySignature(ctx, s, sig(tt.sig))
			if err != nil {
				t.Fatal(err)
			}
			if string(tx.Raw) != tt.raw {
				t.Errorf("raw %s, want %s", tx.Raw, tt.raw)
			}
			opened := []byte{}
			for _, a := range tx.Opened {
				opened = append(opened, a.Hash[0])
			}
			if !reflect.DeepEqual(opened, append([]byte{}, tt.opened...)) {
				t.Errorf("opened %v, want %v", opened, tt.opened)
			}
			got := []closed{}
			for _, c := range tx.Closed {
				if c.Nullifier != c.TxHash {
					t.Errorf("closed %d: nullifier and tx hash differ", c.Hash[0])
				}
				got = append(got, closed{c.Hash[0], c.Nullifier[0]})
			}
			if !reflect.DeepEqual(got, append([]closed{}, tt.closed...)) {
				t.Errorf("closed %v, want %v", got, tt.closed)
			}
		})
	}
	if _, err := compressed.TransactionBySignature(ctx, s, sig(9)); !errors.Is(err, compressed.ErrTxNotFound) {
		t.Errorf("unknown signature: %v, want ErrTxNotFound", err)
	}
}

func TestLatestNonVotingSignatures(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	failed := `{"InstructionError":[0,{"Custom":1}]}`
	insertTx(t, s, 4, 1, false, nil)
	insertTx(t, s, 5, 2, true, nil)
	insertTx(t, s, 5, 3, false, &failed)
	insertTx(t, s, 6, 4, false, nil)
	insertTx(t, s, 6, 4, false, nil) // re-ingested
	tests := []struct {
		name string
		page compressed.SigPage
		want []slotSig
	}{
		{"all newest first, votes left out", compressed.SigPage{Limit: 10}, []slotSig{{6, 4}, {5, 3}, {4, 1}}},
		{"limit", compressed.SigPage{Limit: 1}, []slotSig{{6, 4}}},
		{"before", compressed.SigPage{Limit: 10, Before: &compressed.SigCursor{Slot: 6, Signature: sig(4)}}, []slotSig{{5, 3}, {4, 1}}},
		{"limit 0", compressed.SigPage{Limit: 0}, []slotSig{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := compressed.LatestNonVotingSignatures(ctx, s, tt.page)
			if err != nil {
				t.Fatal(err)
			}
			got := []slotSig{}
			for _, it := range items {
				got = append(got, slotSig{it.Slot, it.Signature[0]})
				if wantErr := it.Signature[0] == 3; (it.Err != nil) != wantErr || (wantErr && *it.Err != failed) {
					t.Errorf("signature %d: error %v", it.Signature[0], it.Err)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
