package source

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/bubblegum"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// synthSlots are n slots from first on: each with two token accounts
// written twice, one account of another program, a Bubblegum transaction
// (failed in every third slot), a transaction of another program, and
// block metadata.
func synthSlots(first uint64, n int) []geysertest.Slot {
	other := geysertest.Key("program", 0)
	var out []geysertest.Slot
	for i := range n {
		s := first + uint64(i)
		bt := int64(1_700_000_000 + s)
		sl := geysertest.Slot{Slot: s, Parent: s - 1, BlockTime: &bt}
		for a := range uint64(2) {
			for w := range uint64(2) {
				sl.Accounts = append(sl.Accounts, geysertest.AccountWrite(geysertest.Key("account", a), token.TokenProgram(),
					s*100+w, s*10+a*2+w, fmt.Appendf(nil, "slot %d write %d", s, w)))
			}
		}
		sl.Accounts = append(sl.Accounts, geysertest.AccountWrite(geysertest.Key("foreign", s), other, 1, s*10+9, nil))
		sl.Txs = []*pb.SubscribeUpdateTransactionInfo{
			geysertest.Transaction(s*10, 0, s%3 == 0, bubblegum.ProgramID()),
			geysertest.Transaction(s*10+1, 1, false, other),
		}
		out = append(out, sl)
	}
	return out
}

func grpcSource(t *testing.T, url string, o GRPCOptions) *GRPC {
	t.Helper()
	src, err := Parse("grpc:" + url)
	if err != nil {
		t.Fatal(err)
	}
	g := src.(*GRPC)
	if o.AccountOwners == nil {
		o.AccountOwners = []solana.Pubkey{token.TokenProgram()}
	}
	if o.TxPrograms == nil {
		o.TxPrograms = []solana.Pubkey{bubblegum.ProgramID()}
	}
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	if err := g.Configure(o); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// got is what a Read emitted, seals included.
type got struct {
	items []Item
	seals []uint64
}

// collect runs src and checks what the pipeline relies on: increasing
// sequence numbers, slots that never decrease, no item at or below a
// sealed slot.
func collect(t *testing.T, src Source) (got, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var g got
	err := src.Read(ctx, func(it Item) error {
		if it.Kind == KindSeal {
			if n := len(g.seals); n > 0 && it.Slot < g.seals[n-1] {
				return fmt.Errorf("seal %d after seal %d", it.Slot, g.seals[n-1])
			}
			g.seals = append(g.seals, it.Slot)
			return nil
		}
		if n := len(g.items); n > 0 {
			if it.Seq != g.items[n-1].Seq+1 {
				return fmt.Errorf("item %d after %d", it.Seq, g.items[n-1].Seq)
			}
			if it.Slot < g.items[n-1].Slot {
				return fmt.Errorf("slot %d after %d", it.Slot, g.items[n-1].Slot)
			}
		}
		if n := len(g.seals); n > 0 && it.Slot <= g.seals[n-1] {
			return fmt.Errorf("item of slot %d after slot %d was sealed", it.Slot, g.seals[n-1])
		}
		g.items = append(g.items, it)
		return nil
	})
	return g, err
}

// summary is one line per item: kind, slot and what it is.
func summary(items []Item) []string {
	var out []string
	for _, it := range items {
		var what string
		switch it.Kind {
		case KindBlock:
			what = fmt.Sprintf("txs=%d time=%d", it.Block.TxCount, *it.Block.BlockTime)
		case KindTx:
			what = fmt.Sprintf("#%d %s failed=%v", it.TxIndex, it.Tx.Signature().String()[:8], it.Tx.Failed())
		case KindAccount:
			what = fmt.Sprintf("%s v%d", it.Account.Pubkey.String()[:8], it.Account.WriteVersion)
		case KindBad:
			what = it.Fail + ": " + it.Err.Error()
		}
		out = append(out, fmt.Sprintf("%s %d %s", it.Kind, it.Slot, what))
	}
	return out
}

func TestGRPCFollows(t *testing.T) {
	slots := synthSlots(100, 6)
	srv := geysertest.Start(t, geysertest.Script{Slots: slots, FinalizeLag: 2})
	g, err := collect(t, grpcSource(t, srv.URL, GRPCOptions{From: new(uint64(100)), To: 105}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{100, 101, 102, 103, 104, 105}; !slices.Equal(g.seals, want) {
		t.Fatalf("seals %v, want %v", g.seals, want)
	}
	// Per slot: the header, the Bubblegum transaction (failed ones too),
	// the last write of each token account... every write, in order.
	var want []string
	for _, s := range slots {
		want = append(want, fmt.Sprintf("block %d txs=2 time=%d", s.Slot, *s.BlockTime))
		tx := s.Txs[0]
		want = append(want, fmt.Sprintf("transaction %d #0 %s failed=%v", s.Slot, solana.Signature(tx.Signature).String()[:8], s.Slot%3 == 0))
		for _, a := range s.Accounts[:4] {
			want = append(want, fmt.Sprintf("account %d %s v%d", s.Slot, solana.Pubkey(a.Pubkey).String()[:8], a.WriteVersion))
		}
	}
	if got := summary(g.items); !slices.Equal(got, want) {
		t.Fatalf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The decoded transaction and account are what their raw JSON says.
	for _, it := range g.items {
		switch it.Kind {
		case KindTx:
			tx, err := solana.ParseTx(it.Raw)
			if err != nil {
				t.Fatal(err)
			}
			tx.TxIndex = it.TxIndex
			a, b := *tx, *it.Tx
			a.Raw, b.Raw = nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Errorf("slot %d: raw JSON decodes to\n%+v\nthe item holds\n%+v", it.Slot, a, b)
			}
		case KindAccount:
			acc, err := solana.ParseAccount(it.Raw)
			if err != nil || !reflect.DeepEqual(acc, it.Account) {
				t.Errorf("slot %d: raw JSON decodes to %+v (%v), the item holds %+v", it.Slot, acc, err, it.Account)
			}
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d subscriptions, want 1", len(reqs))
	}
	r := reqs[0]
	if r.GetFromSlot() != 100 || r.GetCommitment() != pb.CommitmentLevel_CONFIRMED ||
		!slices.Equal(r.Accounts["dasch"].GetOwner(), []string{token.TokenProgram().String()}) ||
		!slices.Equal(r.Transactions["dasch"].GetAccountInclude(), []string{bubblegum.ProgramID().String()}) ||
		r.Transactions["dasch"].GetVote() || !r.Transactions["dasch"].GetFailed() {
		t.Errorf("request %v", r)
	}
}

// Disconnects, repeated updates, writes out of order and a replay that
// starts early give the items of an uninterrupted stream, at every
// commitment.
func TestGRPCResumes(t *testing.T) {
	slots := synthSlots(200, 12)
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		t.Run(c, func(t *testing.T) {
			plain := geysertest.Start(t, geysertest.Script{Slots: slots, FinalizeLag: 3})
			want, err := collect(t, grpcSource(t, plain.URL, GRPCOptions{From: new(uint64(200)), To: 211, Commitment: c}))
			if err != nil {
				t.Fatal(err)
			}
			rough := geysertest.Start(t, geysertest.Script{Slots: slots, FinalizeLag: 3,
				Disconnects: []int{7, 0, 13, 1, 29}, Duplicate: 3, Reverse: true, ReplayOverlap: 4, PingEvery: 5})
			g, err := collect(t, grpcSource(t, rough.URL, GRPCOptions{From: new(uint64(200)), To: 211, Commitment: c}))
			if err != nil {
				t.Fatal(err)
			}
			if rough.Streams() < 6 {
				t.Errorf("%d streams, want the 5 scripted disconnects and a last one", rough.Streams())
			}
			if got, w := summary(g.items), summary(want.items); !slices.Equal(got, w) {
				t.Fatalf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
			for i := range g.items {
				if string(g.items[i].Raw) != string(want.items[i].Raw) {
					t.Fatalf("item %d: raw differs", i)
				}
			}
			// Each new stream resumes after the last sealed slot.
			for _, r := range rough.Requests()[1:] {
				if r.FromSlot == nil || r.GetFromSlot() < 200 {
					t.Errorf("resumed with from_slot %v", r.FromSlot)
				}
			}
		})
	}
}

// Server pings are answered on the stream.
func TestGRPCPings(t *testing.T) {
	srv := geysertest.Start(t, geysertest.Script{Slots: synthSlots(600, 4), PingEvery: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- grpcSource(t, srv.URL, GRPCOptions{}).Read(ctx, func(Item) error { return nil }) }()
	deadline := time.Now().Add(10 * time.Second)
	for srv.Pongs() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the context's", err)
	}
	if n := srv.Pongs(); n < 3 {
		t.Errorf("%d pings answered, want at least 3", n)
	}
}

// Forks, slots that never get a status, and dead slots emit nothing; a
// live start skips the first slot, which may have begun before it.
func TestGRPCForksAndLiveStart(t *testing.T) {
	slots := synthSlots(300, 8)
	slots[2].Fork = true   // 302: processed, abandoned
	slots[3].Parent = 301  // 303 builds on 301
	slots[4].Orphan = true // 304: content, no status
	slots[5].Parent = 303  // 305 builds on 303
	slots[6].Dead = true   // 306: dead
	slots[7].Parent = 305  // 307 builds on 305
	srv := geysertest.Start(t, geysertest.Script{Slots: slots})
	for _, c := range []struct {
		commitment string
		from       *uint64
		seals      []uint64
	}{
		{"confirmed", new(uint64(300)), []uint64{300, 301, 303, 305, 307}},
		{"confirmed", nil, []uint64{301, 303, 305, 307}},
		// Processed slots go out as they are processed: the fork too.
		{"processed", new(uint64(300)), []uint64{300, 301, 302, 303, 305, 307}},
	} {
		g, err := collect(t, grpcSource(t, srv.URL, GRPCOptions{From: c.from, To: 307, Commitment: c.commitment}))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.seals, c.seals) {
			t.Errorf("%s from %v: seals %v, want %v", c.commitment, c.from, g.seals, c.seals)
		}
		for _, it := range g.items {
			if !slices.Contains(c.seals, it.Slot) {
				t.Errorf("%s: item of slot %d", c.commitment, it.Slot)
			}
		}
	}
}

// Malformed updates become bad items of their slot; the stream goes on.
func TestGRPCMalformed(t *testing.T) {
	slots := synthSlots(400, 3)
	short := geysertest.AccountWrite(geysertest.Key("a", 1), token.TokenProgram(), 1, 1, nil)
	short.Pubkey = short.Pubkey[:31]
	noOwner := geysertest.AccountWrite(geysertest.Key("a", 2), token.TokenProgram(), 1, 2, nil)
	noOwner.Owner = nil
	huge := geysertest.AccountWrite(geysertest.Key("a", 3), token.TokenProgram(), 1, 3, make([]byte, 10<<20+1))
	badIndex := geysertest.Transaction(4001, 3, false, bubblegum.ProgramID())
	badIndex.Transaction.Message.Instructions[0].ProgramIdIndex = 40
	noMessage := geysertest.Transaction(4002, 4, false, bubblegum.ProgramID())
	noMessage.Transaction.Message = nil
	badErr := geysertest.Transaction(4003, 5, false, bubblegum.ProgramID())
	badErr.Meta.Err = &pb.TransactionError{Err: []byte{8, 0}}
	acct := func(a *pb.SubscribeUpdateAccountInfo) *pb.SubscribeUpdate {
		return &pb.SubscribeUpdate{UpdateOneof: &pb.SubscribeUpdate_Account{Account: &pb.SubscribeUpdateAccount{Account: a, Slot: 401}}}
	}
	txu := func(x *pb.SubscribeUpdateTransactionInfo) *pb.SubscribeUpdate {
		return &pb.SubscribeUpdate{UpdateOneof: &pb.SubscribeUpdate_Transaction{Transaction: &pb.SubscribeUpdateTransaction{Transaction: x, Slot: 401}}}
	}
	slots[1].Extra = []*pb.SubscribeUpdate{
		acct(short), acct(noOwner), acct(huge), txu(badIndex), txu(noMessage), txu(badErr),
		{UpdateOneof: &pb.SubscribeUpdate_Account{Account: &pb.SubscribeUpdateAccount{Slot: 401}}},
		{UpdateOneof: &pb.SubscribeUpdate_Transaction{Transaction: &pb.SubscribeUpdateTransaction{Slot: 401}}},
		{UpdateOneof: &pb.SubscribeUpdate_BlockMeta{BlockMeta: &pb.SubscribeUpdateBlockMeta{Slot: 401, Blockhash: "not base58!"}}},
		{}, // no update at all: skipped
	}
	srv := geysertest.Start(t, geysertest.Script{Slots: slots})
	g, err := collect(t, grpcSource(t, srv.URL, GRPCOptions{From: new(uint64(400)), To: 402}))
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, it := range g.items {
		if it.Kind == KindBad {
			if it.Slot != 401 || len(it.Raw) == 0 && !strings.Contains(it.Err.Error(), "10485761") {
				t.Errorf("bad item of slot %d, payload %d bytes", it.Slot, len(it.Raw))
			}
			bad = append(bad, it.Fail+": "+it.Err.Error())
		}
	}
	want := []string{
		"pubkey of 31 bytes, want 32",
		"owner of 0 bytes, want 32",
		"10485761 bytes of data, at most 10485760",
		"program id index 40 out of range (2 account keys)",
		"no message",
		"transaction error 0800: unexpected end",
		"account update without an account",
		"transaction update without a transaction",
		"blockhash",
	}
	if len(bad) != len(want) {
		t.Fatalf("bad items:\n%s\nwant %d", strings.Join(bad, "\n"), len(want))
	}
	for i := range want {
		if !strings.Contains(bad[i], want[i]) {
			t.Errorf("bad item %d: %s, want %q", i, bad[i], want[i])
		}
	}
	if !slices.Equal(g.seals, []uint64{400, 401, 402}) {
		t.Errorf("seals %v", g.seals)
	}
}

func TestGRPCFailures(t *testing.T) {
	slots := synthSlots(500, 3)
	cases := []struct {
		name   string
		script geysertest.Script
		o      GRPCOptions
		want   string
	}{
		{"token", geysertest.Script{Slots: slots, Token: "secret"}, GRPCOptions{XToken: "wrong"}, "refused: invalid x-token (check --x-token)"},
		{"gone", geysertest.Script{Slots: slots, FirstAvailable: 450}, GRPCOptions{From: new(uint64(10))},
			"cannot replay from slot 10: broadcast from 10 is not available, last available: 450"},
		{"no replay", geysertest.Script{Slots: slots, NoReplay: true}, GRPCOptions{From: new(uint64(500))},
			"does not replay past slots (from_slot), so it cannot resume at slot 500"},
		{"silent", geysertest.Script{}, GRPCOptions{Idle: 50 * time.Millisecond, Attempts: 3},
			"no update for 50ms (gave up after 3 streams in a row without a slot)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := geysertest.Start(t, c.script)
			_, err := collect(t, grpcSource(t, srv.URL, c.o))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	// The right token passes.
	srv := geysertest.Start(t, geysertest.Script{Slots: slots, Token: "secret"})
	if _, err := collect(t, grpcSource(t, srv.URL, GRPCOptions{XToken: "secret", From: new(uint64(500)), To: 502})); err != nil {
		t.Fatal(err)
	}
	g := grpcSource(t, srv.URL, GRPCOptions{XToken: "secret"})
	if tip, err := g.Tip(context.Background()); err != nil || tip != 502 {
		t.Errorf("tip %d, %v", tip, err)
	}
	// A consumer failing stops Read at once.
	boom := errors.New("boom")
	err := grpcSource(t, srv.URL, GRPCOptions{XToken: "secret", From: new(uint64(500))}).Read(context.Background(), func(Item) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
}

func TestGRPCConfigure(t *testing.T) {
	g, err := NewGRPC("https://geyser.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if g.target != "geyser.example.com:443" || !g.secure {
		t.Errorf("target %s, secure %v", g.target, g.secure)
	}
	if err := g.Configure(GRPCOptions{Commitment: "rooted"}); err == nil || !strings.Contains(err.Error(), "want processed, confirmed or finalized") {
		t.Errorf("err = %v", err)
	}
	if err := g.Configure(GRPCOptions{From: new(uint64(9)), To: 8}); err == nil {
		t.Error("a range ending before it starts was accepted")
	}
	// No programs: no account or transaction filter, which would match
	// everything.
	if err := g.Configure(GRPCOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := g.request(nil); r.Accounts != nil || r.Transactions != nil || r.FromSlot != nil {
		t.Errorf("request %v", r)
	}
}
