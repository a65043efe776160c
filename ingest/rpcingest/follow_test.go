package rpcingest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// corpusNode serves the corpus copies as a chain: each transaction in
// its slot's block, each account written at its slot by a transaction of
// its owner program.
func corpusNode(t *testing.T, files []string) *rpcnode.Node {
	t.Helper()
	c := rpcnode.NewChain()
	if err := c.AddFiles(files...); err != nil {
		t.Fatal(err)
	}
	n := c.Serve()
	t.Cleanup(n.Close)
	return n
}

// Following a node that serves the corpus as blocks and account states
// gives every asset getAsset's answer indexing the same files gives,
// whether the node answers accounts as of the block or (as nodes do) as
// of its newest slot; listing its accounts first and following from
// there gives them too. A listing has the accounts, not the transactions
// before it: compressed NFTs minted before it are not known (their
// Bubblegum history is indexed from transactions; see docs/ingest.md).
func TestFollowMatchesFiles(t *testing.T) {
	dir, files, first, last, firstTx := corpus(t)
	s := storetest.Open(t)
	indexFiles(t, s, dir)
	want := answers(t, s)
	if firstTx <= first {
		t.Fatalf("the first transaction is at the first slot, %d", first)
	}
	for _, tc := range []struct {
		name   string
		exact  bool
		listAt uint64 // 0: no listing
	}{
		{"accounts as of each block", true, 0},
		{"accounts as of the newest slot", false, 0},
		{"listed before the first transaction, then followed", false, firstTx - 1},
		{"listed at a middle slot, then followed", false, (first + last) / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := corpusNode(t, files)
			if tc.exact {
				n.AnswerExactly()
			}
			o := source.RPCOptions{From: first, To: last}
			if tc.listAt != 0 {
				o.Bootstrap = true
				n.GrowFrom(tc.listAt)
			}
			s := storetest.Open(t)
			cfg := config(t, s, nil)
			cfg.Source = rpcSource(t, n, &cfg, o)
			st, err := ingest.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.DeadLetters != 0 || st.Slot != last {
				t.Fatalf("%d dead letters, indexed slot %d (want none, %d)", st.DeadLetters, st.Slot, last)
			}
			if n.Calls("getMultipleAccounts") == 0 || (tc.listAt != 0) != (n.Calls("getProgramAccountsV2") > 0) {
				t.Fatalf("%d getMultipleAccounts, %d getProgramAccountsV2 calls", n.Calls("getMultipleAccounts"), n.Calls("getProgramAccountsV2"))
			}
			got, wanted := answers(t, s), want
			if tc.listAt > firstTx {
				wanted = map[string]string{}
				for k, v := range want {
					if !strings.Contains(v, `"compressed":true`) {
						wanted[k] = v
					}
				}
				for k, v := range got {
					if strings.Contains(v, `"compressed":true`) {
						delete(got, k)
					}
				}
				if len(wanted) < len(want)/3 {
					t.Fatalf("only %d of %d answers are of accounts", len(wanted), len(want))
				}
			}
			sameAnswers(t, tc.name, got, wanted)
		})
	}
}
