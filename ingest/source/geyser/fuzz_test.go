package geyser_test

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/source/geyser"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// smallTx is a small transaction update touching every part the
// conversion reads: the fuzzer minimizes each new input, which takes long
// on fixture-sized ones.
func smallTx(versioned bool) *pb.SubscribeUpdateTransaction {
	key := func(b byte) []byte { k := make([]byte, 32); k[0] = b; return k }
	sig := make([]byte, 64)
	sig[0] = 9
	cu := uint64(1400)
	sh := uint32(2)
	msg := &pb.Message{
		Header:          &pb.MessageHeader{NumRequiredSignatures: 1, NumReadonlyUnsignedAccounts: 1},
		AccountKeys:     [][]byte{key(1), key(2)},
		RecentBlockhash: key(3),
		Instructions:    []*pb.CompiledInstruction{{ProgramIdIndex: 1, Accounts: []byte{0}, Data: []byte{1, 2}}},
		Versioned:       versioned,
	}
	meta := &pb.TransactionStatusMeta{
		Fee: 5000, PreBalances: []uint64{10, 1}, PostBalances: []uint64{5, 1}, ComputeUnitsConsumed: &cu,
		InnerInstructions: []*pb.InnerInstructions{{Index: 0, Instructions: []*pb.InnerInstruction{{ProgramIdIndex: 1, Data: []byte{7}, StackHeight: &sh}}}},
		LogMessages:       []string{"Program log: hi"},
		ReturnDataNone:    true,
	}
	if versioned {
		msg.AddressTableLookups = []*pb.MessageAddressTableLookup{{AccountKey: key(4), WritableIndexes: []byte{0}}}
		meta.LoadedWritableAddresses = [][]byte{key(5)}
	}
	return &pb.SubscribeUpdateTransaction{Slot: 3, Transaction: &pb.SubscribeUpdateTransactionInfo{
		Signature: sig, Index: 1, Transaction: &pb.Transaction{Signatures: [][]byte{sig}, Message: msg}, Meta: meta}}
}

// seedTxs adds small updates, whole and with one field broken.
func seedTxs(f *testing.F) {
	add := func(u *pb.SubscribeUpdateTransaction) {
		b, err := proto.Marshal(u)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, v := range []bool{false, true} {
		add(smallTx(v))
		u := smallTx(v)
		u.Transaction.Transaction.Message.AccountKeys[0] = u.Transaction.Transaction.Message.AccountKeys[0][:31]
		add(u)
		u = smallTx(v)
		u.Transaction.Transaction.Message.Instructions[0].ProgramIdIndex = 1 << 20
		add(u)
		u = smallTx(v)
		u.Transaction.Meta.Err = &pb.TransactionError{Err: []byte{8, 0, 0, 0, 0, 25, 1, 0, 0, 0}}
		add(u)
	}
}

// FuzzTransaction: any bytes either fail to decode, convert with an
// error, or convert to a transaction whose raw JSON decodes to the same.
func FuzzTransaction(f *testing.F) {
	seedTxs(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("slow input %x", b)) })
		defer tm.Stop()
		var u pb.SubscribeUpdateTransaction
		if proto.Unmarshal(b, &u) != nil {
			return
		}
		c, err := geyser.Transaction(&u)
		if err != nil {
			return
		}
		bt := int64(1700000000)
		tx := c.Finish(&bt)
		back, err := solana.ParseTx(tx.Raw)
		if err != nil {
			t.Fatalf("converted transaction's JSON does not parse: %v\n%s", err, tx.Raw)
		}
		back.TxIndex = tx.TxIndex
		same(t, "fuzz", tx, back)
	})
}

// FuzzAccount: the same for account updates.
func FuzzAccount(f *testing.F) {
	for _, file := range fixtures(f, "das/accounts/mpl_core_get_asset/*.json")[:1] {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		u, err := geysertest.AccountUpdate(raw)
		if err != nil {
			f.Fatal(err)
		}
		b, _ := proto.Marshal(u)
		f.Add(b)
		u.Account.Owner = u.Account.Owner[:5]
		b, _ = proto.Marshal(u)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var u pb.SubscribeUpdateAccount
		if proto.Unmarshal(b, &u) != nil {
			return
		}
		acc, raw, err := geyser.Account(&u)
		if err != nil {
			return
		}
		back, err := solana.ParseAccount(raw)
		if err != nil {
			t.Fatalf("converted account's JSON does not parse: %v\n%s", err, raw)
		}
		if !reflect.DeepEqual(acc, back) {
			t.Fatalf("raw JSON decodes to %+v, want %+v", back, acc)
		}
	})
}

// FuzzBlockMeta: block metadata converts or fails, never panics.
func FuzzBlockMeta(f *testing.F) {
	m := &pb.SubscribeUpdateBlockMeta{Slot: 5, ParentSlot: 4, Blockhash: "11111111111111111111111111111111",
		ParentBlockhash: "11111111111111111111111111111111", BlockTime: &pb.UnixTimestamp{Timestamp: 9}}
	b, _ := proto.Marshal(m)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		var m pb.SubscribeUpdateBlockMeta
		if proto.Unmarshal(b, &m) != nil {
			return
		}
		if blk, err := geyser.Block(&m); err == nil && blk.Slot != m.GetSlot() {
			t.Fatalf("block %d converted as %d", m.GetSlot(), blk.Slot)
		}
	})
}

// FuzzTxError: any bincode converts to JSON or fails; JSON of a known
// variant serializes back to the same bytes.
func FuzzTxError(f *testing.F) {
	for _, s := range [][]byte{{0, 0, 0, 0}, {8, 0, 0, 0, 2, 25, 0, 0, 0, 1, 0, 0, 0}, {31, 0, 0, 0, 4}, {8, 0, 0, 0, 1, 44, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 'x'}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		js, err := geyser.TxErrorJSON(b)
		if err != nil {
			return
		}
		back, err := geyser.TxErrorBincode(js)
		if err != nil {
			return // an unknown variant
		}
		again, err := geyser.TxErrorJSON(back)
		if err != nil || string(again) != string(js) {
			t.Fatalf("%x: %s serializes to %x, which reads as %s (%v)", b, js, back, again, err)
		}
	})
}
