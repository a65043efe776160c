package grpcfollow_test

import (
	"strings"
	"testing"

	protobuf "google.golang.org/protobuf/proto"

	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// Malformed updates become dead letters, with their slot, why, and the
// update as protobuf JSON; the stream goes on and every later slot is
// indexed.
func TestMalformedUpdatesAreDeadLetters(t *testing.T) {
	e := newEnv(t)
	slots := mixedSlots(t)[:6]
	at := slots[2].Slot
	shortKey := geysertest.AccountWrite(geysertest.Key("bad", 1), token.TokenProgram(), 1, 1, nil)
	shortKey.Pubkey = shortKey.Pubkey[:20]
	tx := protobuf.Clone(slots[0].Txs[0]).(*pb.SubscribeUpdateTransactionInfo)
	tx.Transaction.Message.AccountKeys = tx.Transaction.Message.AccountKeys[:1]
	shortKey2 := protobuf.Clone(shortKey).(*pb.SubscribeUpdateAccountInfo)
	shortKey2.Lamports = 2
	slots[2].Extra = []*pb.SubscribeUpdate{
		{UpdateOneof: &pb.SubscribeUpdate_Account{Account: &pb.SubscribeUpdateAccount{Slot: at, Account: shortKey}}},
		// Another update failing alike is another dead letter.
		{UpdateOneof: &pb.SubscribeUpdate_Account{Account: &pb.SubscribeUpdateAccount{Slot: at, Account: shortKey2}}},
		{UpdateOneof: &pb.SubscribeUpdate_Transaction{Transaction: &pb.SubscribeUpdateTransaction{Slot: at, Transaction: tx}}},
		{UpdateOneof: &pb.SubscribeUpdate_Transaction{Transaction: &pb.SubscribeUpdateTransaction{Slot: at}}},
	}
	e.reset()
	srv := geysertest.Start(t, geysertest.Script{Slots: slots})
	last := slots[len(slots)-1].Slot
	st := e.stream(srv, false, source.GRPCOptions{From: &slots[0].Slot, To: last})
	if st.DeadLetters != 4 || st.Slot != last {
		t.Fatalf("%d dead letters, indexed slot %d: want 4 and %d", st.DeadLetters, st.Slot, last)
	}
	res, err := e.s.Query(t.Context(), `SELECT kind, slot, error, length(payload), source FROM dead_letters FINAL ORDER BY error`, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"account update: pubkey of 20 bytes, want 32", "account update: pubkey of 20 bytes, want 32",
		"instruction 0: program id index", "transaction update without a transaction"}
	if len(res.Rows) != len(want) {
		t.Fatalf("dead letters: %v", res.Rows)
	}
	for i, r := range res.Rows {
		kind, slot, msg, payload, src := r[0].(string), r[1].(uint64), r[2].(string), r[3].(uint64), r[4].(string)
		if slot != at || !strings.Contains(msg, want[i]) || payload == 0 || !strings.HasPrefix(src, "grpc:") {
			t.Errorf("dead letter %d: %s slot %d %q payload %v from %s; want slot %d, %q", i, kind, slot, msg, payload, src, at, want[i])
		}
	}
}
