package geyser_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/source/geyser"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

const corpus = "../../../../shared/corpus"

// fixtures lists transaction fixtures of both corpora: json-encoded ones
// (DAS) and base64 ones with full status (Photon).
func fixtures(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpus, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures at %s (%v)", pattern, err)
	}
	return files
}

// same compares two decodings of one transaction field by field, treating
// empty and nil slices alike.
func same(t *testing.T, what string, got, want *solana.Tx) {
	t.Helper()
	g, w := *got, *want
	g.Raw, w.Raw = nil, nil
	norm := func(x *solana.Tx) {
		for i := range x.Instructions {
			x.Instructions[i].Accounts = bytes.Clone(x.Instructions[i].Accounts)
			if len(x.Instructions[i].Accounts) == 0 {
				x.Instructions[i].Accounts = nil
			}
		}
		x.Instructions = append([]solana.Instruction(nil), x.Instructions...)
		x.Inner = append([]solana.InnerInstruction(nil), x.Inner...)
		for i := range x.Inner {
			if len(x.Inner[i].Accounts) == 0 {
				x.Inner[i].Accounts = nil
			}
		}
	}
	norm(&g)
	norm(&w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: decoded differently\n got %+v\nwant %+v", what, g, w)
	}
}

// TestTransactionRoundTrip builds each fixture's Geyser update and
// converts it back: the transaction equals the one its raw JSON decodes
// to, and the one the fixture itself decodes to in every field the
// fixture carries.
func TestTransactionRoundTrip(t *testing.T) {
	files := append(fixtures(t, "photon/transactions/*/*.json"), fixtures(t, "das/transactions/*/*.json")...)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := solana.ParseTx(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		u, err := geysertest.TxUpdate(raw, 7)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// Through the wire, as a client receives it.
		b, err := proto.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		var got pb.SubscribeUpdateTransaction
		if err := proto.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		conv, err := geyser.Transaction(&got)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tx := conv.Finish(want.BlockTime)
		if tx.TxIndex != 7 {
			t.Errorf("%s: index %d, want 7", f, tx.TxIndex)
		}
		back, err := solana.ParseTx(tx.Raw)
		if err != nil {
			t.Fatalf("%s: raw JSON does not parse: %v\n%s", f, err, tx.Raw)
		}
		back.TxIndex = tx.TxIndex
		same(t, f+" (raw)", tx, back)
		// The fixture may lack the header and blockhash (json encoding).
		cmp := *tx
		if want.Header == nil {
			cmp.Header, cmp.RecentBlockhash = nil, solana.Hash{}
		}
		want.TxIndex = 7
		same(t, f+" (fixture)", &cmp, want)
	}
}

func TestAccountRoundTrip(t *testing.T) {
	for _, f := range fixtures(t, "das/accounts/*/*.json") {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := solana.ParseAccount(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		u, err := geysertest.AccountUpdate(raw)
		if err != nil {
			t.Fatal(err)
		}
		acc, js, err := geyser.Account(u)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(acc, want) {
			t.Errorf("%s: got %+v, want %+v", f, acc, want)
		}
		back, err := solana.ParseAccount(js)
		if err != nil || !reflect.DeepEqual(back, want) {
			t.Errorf("%s: raw JSON decodes to %+v (%v), want %+v", f, back, err, want)
		}
	}
}

func TestTxErrors(t *testing.T) {
	for _, c := range []struct {
		json string
		bin  []byte
	}{
		{`"AccountInUse"`, []byte{0, 0, 0, 0}},
		{`{"InstructionError":[2,{"Custom":6001}]}`, []byte{8, 0, 0, 0, 2, 25, 0, 0, 0, 0x71, 0x17, 0, 0}},
		{`{"InstructionError":[0,"InvalidArgument"]}`, []byte{8, 0, 0, 0, 0, 1, 0, 0, 0}},
		{`{"InstructionError":[1,"BorshIoError"]}`, []byte{8, 0, 0, 0, 1, 44, 0, 0, 0}},
		{`{"InstructionError":[1,{"BorshIoError":"bad"}]}`, []byte{8, 0, 0, 0, 1, 44, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 'b', 'a', 'd'}},
		{`{"DuplicateInstruction":3}`, []byte{30, 0, 0, 0, 3}},
		{`{"InsufficientFundsForRent":{"account_index":4}}`, []byte{31, 0, 0, 0, 4}},
		{`"CommitCancelled"`, []byte{38, 0, 0, 0}},
	} {
		got, err := geyser.TxErrorJSON(c.bin)
		if err != nil || string(got) != c.json {
			t.Errorf("%x: got %s (%v), want %s", c.bin, got, err, c.json)
		}
		bin, err := geyser.TxErrorBincode([]byte(c.json))
		if err != nil || !bytes.Equal(bin, c.bin) {
			t.Errorf("%s: got %x (%v), want %x", c.json, bin, err, c.bin)
		}
	}
	for _, bad := range [][]byte{nil, {8, 0, 0}, {8, 0, 0, 0}, {8, 0, 0, 0, 1, 25, 0}, {0, 0, 0, 0, 9}, {30, 0, 0, 0},
		{8, 0, 0, 0, 1, 44, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 'x'}} {
		if got, err := geyser.TxErrorJSON(bad); err == nil {
			t.Errorf("%x: got %s, want an error", bad, got)
		}
	}
	// A variant past the known ones still marks the transaction failed.
	if got, err := geyser.TxErrorJSON([]byte{200, 0, 0, 0, 1}); err != nil || string(got) != `{"Unknown":{"variant":200,"bincode":"yAAAAAE="}}` {
		t.Errorf("unknown variant: %s (%v)", got, err)
	}
}
