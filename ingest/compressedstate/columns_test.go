package compressedstate

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
)

// TestAccountsBuilderColumns builds two records of outputs with and
// without the nullable parts (nulls first, last, and on both sides of a
// bitmap byte) and reads every column back through Arrow's arrays.
func TestAccountsBuilderColumns(t *testing.T) {
	mk := func(i int) *light.OutputAccount {
		o := &light.OutputAccount{TreeType: light.TreeStateV2, LeafIndex: uint32(i), SlotCreated: uint64(100 + i),
			InOutputQueue: i%3 == 0, Lamports: uint64(i * 7)}
		o.Hash[0], o.Tree[1], o.Queue[2], o.Owner[3], o.Signature[0] = byte(i), byte(i+1), byte(i+2), byte(i+3), byte(i+4)
		if i%2 == 1 {
			seq := uint64(i * 11)
			o.Seq = &seq
		}
		if i%4 == 1 {
			a := [32]byte{byte(i + 5)}
			o.Address = &a
		}
		switch i % 5 {
		case 0: // no data
		case 1: // raw data, not a token
			o.Data = &light.AccountData{Data: []byte{byte(i), 1, 2}}
			o.Data.DataHash[0] = byte(i + 6)
		default: // a token account, its data not canonical: stored
			tok := &light.TokenData{Amount: uint64(i), State: light.TokenFrozen}
			tok.Mint[0], tok.Owner[0] = byte(i+7), byte(i+8)
			if i%5 == 2 {
				d := solana.Pubkey{byte(i + 9)}
				tok.Delegate = &d
			}
			if i%5 == 3 {
				tok.TLV = []byte{9, byte(i)}
			}
			o.Token = tok
			o.Data = &light.AccountData{Data: []byte{0xff, byte(i)}}
		}
		return o
	}
	b := newAccountsBuilder(memory.NewGoAllocator())
	for _, n := range []int{17, 9} {
		for i := range n {
			if err := b.Append((*accountRow)(mk(i))); err != nil {
				t.Fatal(err)
			}
		}
		if b.Len() != n {
			t.Fatalf("Len %d, want %d", b.Len(), n)
		}
		rec := b.NewRecord()
		if rec.NumRows() != int64(n) || b.Len() != 0 || b.Size() != 0 {
			t.Fatalf("record of %d rows, builder left with %d", rec.NumRows(), b.Len())
		}
		col := func(name string) int {
			idx := rec.Schema().FieldIndices(name)
			if len(idx) != 1 {
				t.Fatalf("no column %s", name)
			}
			return idx[0]
		}
		key := func(name string, i int) []byte {
			a := rec.Column(col(name)).(*array.FixedSizeBinary)
			if a.IsNull(i) {
				return nil
			}
			return a.Value(i)
		}
		u64 := func(name string, i int) (uint64, bool) {
			a := rec.Column(col(name)).(*array.Uint64)
			return a.Value(i), a.IsValid(i)
		}
		for i := range n {
			o := mk(i)
			if !bytes.Equal(key("hash", i), o.Hash[:]) || !bytes.Equal(key("tree", i), o.Tree[:]) ||
				!bytes.Equal(key("queue", i), o.Queue[:]) || !bytes.Equal(key("owner", i), o.Owner[:]) ||
				!bytes.Equal(key("sig_prefix", i), o.Signature[:8]) {
				t.Errorf("row %d: keys differ", i)
			}
			if v, ok := u64("seq", i); ok != (o.Seq != nil) || (ok && v != *o.Seq) {
				t.Errorf("row %d: seq %d %v", i, v, ok)
			}
			if v, _ := u64("slot_created", i); v != o.SlotCreated {
				t.Errorf("row %d: slot %d", i, v)
			}
			if got := rec.Column(col("in_output_queue")).(*array.Boolean).Value(i); got != o.InOutputQueue {
				t.Errorf("row %d: in_output_queue %v", i, got)
			}
			if got := key("address", i); (o.Address == nil) != (got == nil) || (got != nil && !bytes.Equal(got, o.Address[:])) {
				t.Errorf("row %d: address %x", i, got)
			}
			data := rec.Column(col("data")).(*array.Binary)
			if (o.Data == nil) != data.IsNull(i) || (o.Data != nil && !bytes.Equal(data.Value(i), o.Data.Data)) {
				t.Errorf("row %d: data %x (null %v)", i, data.Value(i), data.IsNull(i))
			}
			if got := key("data_hash", i); (o.Data == nil) != (got == nil) {
				t.Errorf("row %d: data_hash %x", i, got)
			}
			isToken := rec.Column(col("is_token")).(*array.Boolean).Value(i)
			if isToken != (o.Token != nil) {
				t.Errorf("row %d: is_token %v", i, isToken)
			}
			tlv := rec.Column(col("tlv")).(*array.Binary)
			if o.Token == nil {
				if !tlv.IsNull(i) || key("delegate", i) != nil {
					t.Errorf("row %d: a non-token account with tlv or delegate", i)
				}
				continue
			}
			if v, _ := u64("amount", i); v != o.Token.Amount || !bytes.Equal(key("mint", i), o.Token.Mint[:]) ||
				!bytes.Equal(key("token_owner", i), o.Token.Owner[:]) {
				t.Errorf("row %d: token columns differ", i)
			}
			if got := key("delegate", i); (o.Token.Delegate == nil) != (got == nil) {
				t.Errorf("row %d: delegate %x", i, got)
			}
			if (o.Token.TLV == nil) != tlv.IsNull(i) || !bytes.Equal(tlv.Value(i), o.Token.TLV) {
				t.Errorf("row %d: tlv %x", i, tlv.Value(i))
			}
			if st := rec.Column(col("token_state")).(*array.Uint8).Value(i); st != uint8(light.TokenFrozen) {
				t.Errorf("row %d: token_state %d", i, st)
			}
		}
		if err := array.ValidateRecordFull(rec); err != nil {
			t.Errorf("record of %d rows: %v", n, err)
		}
		rec.Release()
	}
}
