package compressed_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// key returns a key whose first byte is b and whose other bytes are
// distinctive, so byte order and base58 order can differ.
func key(b byte) compressed.Key {
	var k compressed.Key
	k[0] = b
	for i := 1; i < len(k); i++ {
		k[i] = byte(i * 7)
	}
	return k
}

func sig(b byte) compressed.Signature {
	var s compressed.Signature
	s[0] = b
	s[63] = 0xee
	return s
}

func ptr[T any](v T) *T { return &v }

func exec(t *testing.T, s arrowstore.Store, sql string, p store.Params) {
	t.Helper()
	if err := s.Exec(context.Background(), sql, p); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// insertAccount writes a into table; extra columns (spent, delegate_key)
// come from the caller. NULLs are literal SQL: this is test code building
// fixtures, not request input.
func insertAccount(t *testing.T, s arrowstore.Store, table string, a compressed.Account, spent bool, extraCols string, extraVals string, extra store.Params) {
	t.Helper()
	p := store.Params{
		"hash": string(a.Hash[:]), "tree": string(a.Tree[:]), "queue": string(a.Queue[:]),
		"tt": strconv.Itoa(int(a.TreeType)), "li": strconv.FormatUint(a.LeafIndex, 10),
		"ioq": strconv.FormatBool(a.InOutputQueue), "sc": strconv.FormatUint(a.SlotCreated, 10),
		"owner": string(a.Owner[:]), "lam": strconv.FormatUint(a.Lamports, 10),
		"tok": strconv.FormatBool(a.IsToken), "mint": string(a.Mint[:]), "towner": string(a.TokenOwner[:]),
		"amt": strconv.FormatUint(a.Amount, 10), "ts": strconv.Itoa(int(a.TokenState)),
		"spent": strconv.FormatBool(spent),
	}
	for k, v := range extra {
		p[k] = v
	}
	seq, addr, disc, data, dh, del, tlv := "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"
	if a.Seq != nil {
		seq, p["seq"] = "{seq:UInt64}", strconv.FormatUint(*a.Seq, 10)
	}
	if a.Address != nil {
		addr, p["addr"] = "{addr:FixedString(32)}", string(a.Address[:])
	}
	if a.Data != nil {
		disc, p["disc"] = "{disc:UInt64}", strconv.FormatUint(a.Data.Discriminator, 10)
		data, p["data"] = "{data:String}", string(a.Data.Data)
		dh, p["dh"] = "{dh:FixedString(32)}", string(a.Data.DataHash[:])
	}
	if a.Delegate != nil {
		del, p["del"] = "{del:FixedString(32)}", string(a.Delegate[:])
	}
	if a.TLV != nil {
		tlv, p["tlv"] = "{tlv:String}", string(a.TLV)
	}
	cols := `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created, owner,
		lamports, address, discriminator, data, data_hash, is_token, mint, token_owner, amount, delegate, token_state, tlv`
	vals := `{hash:FixedString(32)}, {tree:FixedString(32)}, {queue:FixedString(32)}, {tt:UInt8}, {li:UInt64}, ` + seq + `,
		{ioq:Bool}, {sc:UInt64}, {owner:FixedString(32)}, {lam:UInt64}, ` + addr + `, ` + disc + `, ` + data + `, ` + dh + `,
		{tok:Bool}, {mint:FixedString(32)}, {towner:FixedString(32)}, {amt:UInt64}, ` + del + `, {ts:UInt8}, ` + tlv
	if table != "compressed_accounts" {
		// The read paths hold no signature (migration 15).
		cols += ", spent"
		vals += ", {spent:Bool}"
	}
	if extraCols != "" {
		cols += ", " + extraCols
		vals += ", " + extraVals
	}
	exec(t, s, "INSERT INTO "+table+" ("+cols+") VALUES ("+vals+")", p)
}

func tokenAccount(owner, mint, hash byte, amount uint64) compressed.Account {
	return compressed.Account{
		Hash: key(hash), Tree: key(200), Queue: key(201), TreeType: 1, LeafIndex: uint64(hash), Seq: ptr(uint64(hash) + 1),
		Owner: key(250), IsToken: true, Mint: key(mint), TokenOwner: key(owner), Amount: amount,
		Data: &compressed.AccountData{Discriminator: 2, Data: []byte{1, 2, 3}, DataHash: key(99)},
	}
}

// raw is k as a FixedString param value.
func raw(k compressed.Key) string { return string(k[:]) }
