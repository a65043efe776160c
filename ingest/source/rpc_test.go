package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/rpcnode"
)

// fixtureBlocks returns real blocks: the demo's mainnet block and blocks
// built from the demo's mint-and-transfer transactions, by slot.
func fixtureBlocks(t *testing.T) map[uint64][]byte {
	t.Helper()
	demo := filepath.Join("..", "..", "testdata", "demo")
	blocks, err := rpcnode.BlocksFromTransactions(filepath.Join(demo, "e2e_mint_and_transfer_transactions"))
	if err != nil {
		t.Fatal(err)
	}
	main, err := rpcnode.LoadBlocks(filepath.Join(demo, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	for s, b := range main {
		blocks[s] = b
	}
	if len(blocks) < 3 {
		t.Fatalf("want at least 3 fixture blocks, have %d", len(blocks))
	}
	return blocks
}

// readAll runs src and returns its items with Key cleared (where an item
// came from differs between sources), or the error Read returned. Seals
// are checked and left out: each must follow the last item of its slot,
// and every slot with items must be sealed.
func readAll(ctx context.Context, src Source) ([]Item, error) {
	var items []Item
	open := false // the last item's slot is not sealed yet
	err := src.Read(ctx, func(it Item) error {
		if it.Kind == KindSeal {
			if !open || items[len(items)-1].Slot != it.Slot {
				return fmt.Errorf("seal of slot %d after %d items, not after an item of its slot", it.Slot, len(items))
			}
			open = false
			return nil
		}
		if open && it.Slot != items[len(items)-1].Slot {
			return fmt.Errorf("slot %d began before slot %d was sealed", it.Slot, items[len(items)-1].Slot)
		}
		it.Key = ""
		items = append(items, it)
		open = true
		return nil
	})
	if err == nil && open {
		err = fmt.Errorf("slot %d was not sealed", items[len(items)-1].Slot)
	}
	return items, err
}

func rpcSource(t *testing.T, n *rpcnode.Node, o RPCOptions) *RPC {
	t.Helper()
	src, err := Parse("rpc:" + n.URL())
	if err != nil {
		t.Fatal(err)
	}
	r := src.(*RPC)
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := r.Configure(o); err != nil {
		t.Fatal(err)
	}
	return r
}

func slotRange(blocks map[uint64][]byte) (lo, hi uint64) {
	lo = ^uint64(0)
	for s := range blocks {
		lo, hi = min(lo, s), max(hi, s)
	}
	return lo, hi
}

// The RPC source emits what the files source emits for the same blocks,
// in the same order, through skipped slots and the failures a node gives
// that pass when asked again.
func TestRPCMatchesFiles(t *testing.T) {
	blocks := fixtureBlocks(t)
	dir := t.TempDir()
	for s, b := range blocks {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", s)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []Item
	err = files.Read(context.Background(), func(it Item) error {
		it.Key = ""
		want = append(want, it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slots := slices.Sorted(func(yield func(uint64) bool) {
		for s := range blocks {
			if !yield(s) {
				return
			}
		}
	})
	// The small slots are a local validator's; start a few before the
	// first so skipped slots precede it too.
	lo := slots[0] - min(slots[0], 3)
	small := slots[len(slots)-2] // the last of the small slots
	for _, c := range []struct {
		name     string
		fetchers int
		faults   map[uint64][]rpcnode.Fault
	}{
		{"one at a time", 1, nil},
		{"eight in flight", 8, nil},
		{"failures that pass", 4, map[uint64][]rpcnode.Fault{
			slots[0]: {"429", "-32004", "500"},
			small:    {"bad json", "-32014"},
			lo:       {"-32016"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := rpcnode.New(blocks)
			defer n.Close()
			tries := 0
			for s, fs := range c.faults {
				n.Fail(s, fs...)
				tries += len(fs)
			}
			// Every slot from lo to the small slots' last, then the
			// mainnet block alone: the range between is skipped by
			// To, not asked for.
			var got []Item
			for _, r := range [][2]uint64{{lo, small}, {slots[len(slots)-1], slots[len(slots)-1]}} {
				src := rpcSource(t, n, RPCOptions{From: r[0], To: r[1], Fetchers: c.fetchers})
				items, err := readAll(context.Background(), src)
				if err != nil {
					t.Fatal(err)
				}
				if last := slices.Max(n.Asked()); last != r[1] {
					t.Fatalf("the last slot asked for is %d, want %d", last, r[1])
				}
				got = append(got, items...)
			}
			for i := range got {
				got[i].Seq = uint64(i)
			}
			if len(got) != len(want) {
				t.Fatalf("%d items, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("item %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
			asked := len(n.Asked())
			wantAsked := int(small-lo+1) + 1 + tries
			if asked != wantAsked {
				t.Fatalf("getBlock asked %d times, want %d (every slot once, each fault once more)", asked, wantAsked)
			}
		})
	}
}

// Following the node, the source asks for no slot past the node's newest,
// waits for new ones, and stops when its context ends.
func TestRPCFollows(t *testing.T) {
	blocks := fixtureBlocks(t)
	for s := range blocks {
		if s > 1000 {
			delete(blocks, s) // the local validator's slots only
		}
	}
	lo, hi := slotRange(blocks)
	n := rpcnode.New(blocks)
	defer n.Close()
	n.GrowFrom(lo)
	src := rpcSource(t, n, RPCOptions{From: lo, Poll: 5 * time.Millisecond, Fetchers: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var slotsSeen []uint64
	err := src.Read(ctx, func(it Item) error {
		if it.Kind == KindBlock {
			slotsSeen = append(slotsSeen, it.Slot)
			if it.Slot == hi {
				cancel()
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Read = %v, want context.Canceled once the last block is read", err)
	}
	want := slices.Sorted(func(yield func(uint64) bool) {
		for s := range blocks {
			if !yield(s) {
				return
			}
		}
	})
	if !slices.Equal(slotsSeen, want) {
		t.Fatalf("blocks %v, want %v", slotsSeen, want)
	}
	for _, s := range n.Asked() {
		if s > hi {
			t.Fatalf("asked for slot %d past the node's newest, %d", s, hi)
		}
	}
	if n.Calls("getSlot") < int(hi-lo) {
		t.Fatalf("getSlot called %d times, want at least %d (the tip grows one slot a call)", n.Calls("getSlot"), hi-lo)
	}
}

// Blocks already fetched go out without a getSlot round trip before each:
// with every block at the node and a long poll interval, the newest slot
// is asked once.
func TestRPCTipNotAskedPerBlock(t *testing.T) {
	blocks := fixtureBlocks(t)
	for s := range blocks {
		if s > 1000 {
			delete(blocks, s)
		}
	}
	lo, hi := slotRange(blocks)
	n := rpcnode.New(blocks)
	defer n.Close()
	src := rpcSource(t, n, RPCOptions{From: lo, Poll: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := src.Read(ctx, func(it Item) error {
		if it.Kind == KindSeal && it.Slot == hi {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Read = %v", err)
	}
	if c := n.Calls("getSlot"); c != 1 {
		t.Fatalf("getSlot asked %d times for %d blocks, want once", c, hi-lo+1)
	}
}

// Failures that do not pass stop Read with an error naming the slot; a
// block that does not parse is a bad item and reading goes on.
func TestRPCFailures(t *testing.T) {
	blocks := fixtureBlocks(t)
	lo, _ := slotRange(blocks)
	cases := []struct {
		name    string
		faults  []rpcnode.Fault
		attempt int
		want    string // error substring; "" = Read succeeds
	}{
		{"node error", []rpcnode.Fault{"-32602"}, 3, fmt.Sprintf("getBlock %d: node error -32602: scripted error", lo)},
		{"always busy", []rpcnode.Fault{"429", "429", "429"}, 3, "HTTP 429"},
		{"gave up", []rpcnode.Fault{"500", "500", "500"}, 3, "gave up after 3 tries"},
		{"not JSON-RPC", []rpcnode.Fault{"bad json", "bad json"}, 2, "answer is not JSON-RPC"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := rpcnode.New(map[uint64][]byte{lo: blocks[lo]})
			defer n.Close()
			n.Fail(lo, c.faults...)
			src := rpcSource(t, n, RPCOptions{From: lo, To: lo, Attempts: c.attempt})
			_, err := readAll(context.Background(), src)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "rpc:"+n.URL()) {
				t.Fatalf("err = %v, want one naming the source and %q", err, c.want)
			}
		})
	}
	t.Run("bad block", func(t *testing.T) {
		n := rpcnode.New(map[uint64][]byte{lo: []byte(`{"blockhash":"x","transactions":[]}`), lo + 1: blocks[lo]})
		defer n.Close()
		items, err := readAll(context.Background(), rpcSource(t, n, RPCOptions{From: lo, To: lo + 1}))
		if err != nil {
			t.Fatal(err)
		}
		if len(items) < 2 || items[0].Kind != KindBad || items[0].Fail != "block" || items[0].Slot != lo || items[0].Err == nil ||
			items[1].Kind != KindBlock || items[1].Slot != lo+1 {
			t.Fatalf("items %+v: want the bad block as a dead letter, then the next block", items)
		}
	})
	// A node that purged older blocks answers for them as for skipped
	// slots: reading from before its history fails instead of skipping
	// them.
	t.Run("purged history", func(t *testing.T) {
		n := rpcnode.New(map[uint64][]byte{lo: blocks[lo]})
		defer n.Close()
		n.SetFirst(lo)
		_, err := readAll(context.Background(), rpcSource(t, n, RPCOptions{From: lo - 1, To: lo}))
		want := fmt.Sprintf("slot %d is older than the node's first available block, %d", lo-1, lo)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want %q", err, want)
		}
		if len(n.Asked()) != 0 {
			t.Fatalf("asked for blocks %v before refusing", n.Asked())
		}
		items, err := readAll(context.Background(), rpcSource(t, n, RPCOptions{From: lo, To: lo}))
		if err != nil || len(items) == 0 {
			t.Fatalf("from the first available block: %d items, %v", len(items), err)
		}
		// A node without the method is not checked.
		n.Hide("getFirstAvailableBlock")
		items, err = readAll(context.Background(), rpcSource(t, n, RPCOptions{From: lo - 1, To: lo}))
		if err != nil || len(items) == 0 {
			t.Fatalf("node without getFirstAvailableBlock: %d items, %v", len(items), err)
		}
	})
	t.Run("context", func(t *testing.T) {
		n := rpcnode.New(map[uint64][]byte{lo: blocks[lo]})
		defer n.Close()
		n.Fail(lo, "500", "500", "500", "500", "500")
		src := rpcSource(t, n, RPCOptions{From: lo, To: lo, Backoff: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if _, err := readAll(ctx, src); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's while waiting to try again", err)
		}
	})
}

func TestRPCConfigure(t *testing.T) {
	r, err := NewRPC("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    RPCOptions
		want string
	}{
		{RPCOptions{From: 5, To: 4}, "last slot 4 is before the first, 5"},
		{RPCOptions{Commitment: "processed"}, `commitment "processed": want confirmed or finalized`},
		{RPCOptions{From: 5, To: 5, Commitment: "finalized"}, ""},
		{RPCOptions{From: 5}, ""},
	} {
		err := r.Configure(c.o)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Fatalf("Configure(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
	// A node that is not there: the error says which source and call.
	if err := r.Configure(RPCOptions{From: 1, To: 1, Attempts: 2, Backoff: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	_, err = readAll(context.Background(), r)
	if err == nil || !strings.Contains(err.Error(), "source rpc:http://127.0.0.1:1: getFirstAvailableBlock") {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkRPCSource reads 64 mainnet blocks (the demo's, served at every
// slot) from a loopback node that takes 20 ms to answer a getBlock, as a
// node's disk and network make it, with 1 request in flight (the
// reference) and more. Reports blocks/s and MB/s of getBlock answers.
func BenchmarkRPCSource(b *testing.B) {
	main, err := rpcnode.LoadBlocks(filepath.Join("..", "..", "testdata", "demo", "blocks"))
	if err != nil || len(main) != 1 {
		b.Fatalf("demo block: %v", err)
	}
	var block []byte
	for _, blk := range main {
		block = blk
	}
	const slots = 64
	blocks := map[uint64][]byte{}
	for s := uint64(1000); s < 1000+slots; s++ {
		blocks[s] = block
	}
	n := rpcnode.New(blocks)
	defer n.Close()
	n.SetDelay(20 * time.Millisecond)
	for _, fetchers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("fetchers=%d", fetchers), func(b *testing.B) {
			var txs int
			for b.Loop() {
				r, err := NewRPC(n.URL())
				if err != nil {
					b.Fatal(err)
				}
				if err := r.Configure(RPCOptions{From: 1000, To: 1000 + slots - 1, Fetchers: fetchers}); err != nil {
					b.Fatal(err)
				}
				txs = 0
				err = r.Read(context.Background(), func(it Item) error {
					if it.Kind == KindTx {
						txs++
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(slots/sec, "blocks/s")
			b.ReportMetric(float64(txs)/sec, "txs/s")
			b.ReportMetric(float64(slots*len(block))/sec/1e6, "MB/s")
		})
	}
}
