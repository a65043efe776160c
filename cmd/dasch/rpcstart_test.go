package main

import (
	"context"
	"flag"
	"strconv"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

// TestRPCStart: where an rpc source starts, by --from, latest, a resumed
// run and the indexed slot. The node's newest slot is 43.
func TestRPCStart(t *testing.T) {
	blocks, err := rpcnode.BlocksFromTransactions("../../testdata/demo/e2e_mint_and_transfer_transactions")
	if err != nil {
		t.Fatal(err)
	}
	n := rpcnode.New(blocks)
	defer n.Close()
	rpc, err := source.NewRPC(n.URL())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := storetest.Open(t)
	slot := func(v uint64) *uint64 { return &v }
	cases := []struct {
		name           string
		indexed        *uint64 // checkpoint written first; nil: none
		given          *uint64
		latest, resume bool
		want           uint64
	}{
		{"empty store", nil, nil, false, false, 43},
		{"empty store, from", nil, slot(5), false, false, 5},
		{"empty store, resumed from", nil, slot(5), false, true, 5},
		{"empty store, latest", nil, nil, true, false, 43},
		{"indexed", slot(40), nil, false, false, 41},
		{"indexed, from before it", slot(40), slot(5), false, false, 5},
		{"indexed, resumed from before it", slot(40), slot(5), false, true, 41},
		{"indexed, resumed from after it", slot(40), slot(42), false, true, 42},
		{"indexed, latest", slot(40), nil, true, false, 43},
		{"indexed, resumed latest", slot(40), nil, true, true, 41},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := storetest.Reset(ctx, s); err != nil {
				t.Fatal(err)
			}
			if c.indexed != nil {
				if err := s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', {slot:UInt64})`,
					store.Params{"slot": strconv.FormatUint(*c.indexed, 10)}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := rpcStart(ctx, s, rpc, c.given, c.latest, c.resume)
			if err != nil || got != c.want {
				t.Fatalf("rpcStart = %d, %v; want %d", got, err, c.want)
			}
		})
	}
}

// TestBootstrapDue: --bootstrap lists only a store with nothing indexed;
// one with an indexed slot (listed before, or indexed otherwise) goes on
// after it.
func TestBootstrapDue(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for _, c := range []struct {
		name    string
		indexed bool
		asked   bool
		want    bool
	}{
		{"not asked", false, false, false},
		{"empty store", false, true, true},
		{"indexed store", true, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := storetest.Reset(ctx, s); err != nil {
				t.Fatal(err)
			}
			if c.indexed {
				if err := s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ('main', 40)`, nil); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := bootstrapDue(ctx, s, c.asked); err != nil || got != c.want {
				t.Fatalf("bootstrapDue = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// TestFollowDefaults: following a node, progress lines and a short batch
// age are the defaults; a bounded range or explicit flags keep theirs.
func TestFollowDefaults(t *testing.T) {
	for _, c := range []struct {
		args  []string
		every time.Duration
		age   time.Duration
	}{
		{[]string{"--source", "rpc:http://127.0.0.1:1"}, 30 * time.Second, followBatchAge},
		{[]string{"--source", "rpc:http://127.0.0.1:1", "--to", "5"}, 0, time.Second},
		{[]string{"--source", "rpc:http://127.0.0.1:1", "--batch-age", "2s", "--progress-every", "1m"}, time.Minute, 2 * time.Second},
		{[]string{"--source", "files:../../testdata/demo"}, 0, time.Second},
	} {
		fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
		src := fs.String("source", "", "")
		f := addIngestFlags(fs, true)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		p, err := f.check(fs, *src)
		if err != nil {
			t.Fatal(err)
		}
		if p.every != c.every || p.batchAge != c.age {
			t.Errorf("%v: progress every %s, batch age %s; want %s, %s", c.args, p.every, p.batchAge, c.every, c.age)
		}
	}
}
