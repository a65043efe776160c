package source

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/internal/rpcnode"
)

var (
	tokenProgram = solana.MustParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	coreProgram  = solana.MustParsePubkey("CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d")
	otherProgram = solana.MustParsePubkey("Vote111111111111111111111111111111111111111")
)

func key(b ...byte) solana.Pubkey {
	var k solana.Pubkey
	copy(k[:], b)
	k[31] = 0x55 // off the System program's all-zero key
	return k
}

// accountsOf parses the account items of items, by slot then key.
func accountsOf(t *testing.T, items []Item) []*solana.Account {
	t.Helper()
	var out []*solana.Account
	for _, it := range items {
		if it.Kind != KindAccount {
			continue
		}
		a, err := solana.ParseAccount(it.Raw)
		if err != nil {
			t.Fatalf("account item %s: %v", it.Raw, err)
		}
		if a.Slot != it.Slot {
			t.Fatalf("account at slot %d in an item of slot %d", a.Slot, it.Slot)
		}
		out = append(out, a)
	}
	return out
}

func describe(a *solana.Account) string {
	return fmt.Sprintf("%d %s %s lamports %d data %x wv %d", a.Slot, a.Pubkey, a.Owner, a.Lamports, a.Data, a.WriteVersion)
}

// After each block the source reads back the accounts the block wrote
// through a followed program and emits those of followed programs and
// those closed, at the block's slot, before its seal; a state newer than
// the block (a node answers its newest) is filed with a later write
// version.
func TestRPCReadsWhatBlocksWrote(t *testing.T) {
	a, b, wallet, foreign := key(1), key(2), key(3), key(4)
	c := rpcnode.NewChain()
	c.Write(10, a, &rpcnode.Account{Owner: tokenProgram, Lamports: 100, Data: []byte{1}})
	c.Write(10, b, &rpcnode.Account{Owner: coreProgram, Lamports: 100, Data: []byte{9, 9}})
	c.Write(12, a, &rpcnode.Account{Owner: tokenProgram, Lamports: 100, Data: []byte{2}})
	c.WriteBy(12, wallet, &rpcnode.Account{Owner: solana.SystemProgram(), Lamports: 5}, tokenProgram)
	c.WriteBy(12, foreign, &rpcnode.Account{Owner: otherProgram, Lamports: 5, Data: []byte{7}}, tokenProgram)
	c.Write(14, a, nil)
	c.WriteBy(16, b, nil, coreProgram)
	for _, exact := range []bool{true, false} {
		t.Run(fmt.Sprintf("exact=%v", exact), func(t *testing.T) {
			n := c.Serve()
			defer n.Close()
			if exact {
				n.AnswerExactly()
			}
			src := rpcSource(t, n, RPCOptions{From: 10, To: 16, Owners: []solana.Pubkey{tokenProgram, coreProgram}})
			items, err := readAll(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			// Each block's accounts come after its transactions.
			for i := 1; i < len(items); i++ {
				if items[i].Slot == items[i-1].Slot && items[i-1].Kind == KindAccount && items[i].Kind != KindAccount {
					t.Fatalf("item %d (%s) after an account of its slot", i, items[i].Kind)
				}
			}
			var got []string
			for _, acc := range accountsOf(t, items) {
				if acc.WriteVersion < acc.Slot {
					t.Errorf("%s: write version below the block's slot", describe(acc))
				}
				acc.WriteVersion = 0
				got = append(got, describe(acc))
			}
			sys := solana.SystemProgram()
			want := []string{
				describe(&solana.Account{Slot: 10, Pubkey: a, Owner: tokenProgram, Lamports: 100, Data: []byte{1}}),
				describe(&solana.Account{Slot: 10, Pubkey: b, Owner: coreProgram, Lamports: 100, Data: []byte{9, 9}}),
				describe(&solana.Account{Slot: 12, Pubkey: a, Owner: tokenProgram, Lamports: 100, Data: []byte{2}}),
				describe(&solana.Account{Slot: 12, Pubkey: wallet, Owner: sys, Lamports: 5, Data: []byte{}}),
				describe(&solana.Account{Slot: 14, Pubkey: a, Owner: sys, Data: []byte{}}),
				describe(&solana.Account{Slot: 16, Pubkey: b, Owner: sys, Data: []byte{}}),
			}
			if !exact {
				// The node answers its newest state: the accounts as
				// they end, filed at each block that wrote them.
				want = []string{
					describe(&solana.Account{Slot: 10, Pubkey: a, Owner: sys, Data: []byte{}}),
					describe(&solana.Account{Slot: 10, Pubkey: b, Owner: sys, Data: []byte{}}),
					describe(&solana.Account{Slot: 12, Pubkey: a, Owner: sys, Data: []byte{}}),
					describe(&solana.Account{Slot: 12, Pubkey: wallet, Owner: sys, Lamports: 5, Data: []byte{}}),
					describe(&solana.Account{Slot: 14, Pubkey: a, Owner: sys, Data: []byte{}}),
					describe(&solana.Account{Slot: 16, Pubkey: b, Owner: sys, Data: []byte{}}),
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("accounts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if calls := n.Calls("getMultipleAccounts"); calls != 4 {
				t.Errorf("getMultipleAccounts called %d times, want once a block", calls)
			}
		})
	}
}

// writtenKeys takes the writable keys of successful transactions that
// run a followed program, but the fee payer and the programs.
func TestWrittenKeys(t *testing.T) {
	payer, acc, ro, prog := key(1), key(2), key(3), tokenProgram
	mk := func(failed bool, program solana.Pubkey) []byte {
		errJSON := "null"
		if failed {
			errJSON = `{"InstructionError":[0,"Custom"]}`
		}
		return fmt.Appendf(nil, `{"slot":5,"meta":{"err":%s,"innerInstructions":[],"logMessages":[],"loadedAddresses":{"writable":[],"readonly":[]}},`+
			`"transaction":{"signatures":["%s"],"message":{"header":{"numRequiredSignatures":1,"numReadonlySignedAccounts":0,"numReadonlyUnsignedAccounts":2},`+
			`"accountKeys":["%s","%s","%s","%s"],"instructions":[{"programIdIndex":3,"accounts":[1,2],"data":""}]}},"version":"legacy"}`,
			errJSON, strings.Repeat("1", 64), payer, acc, ro, program)
	}
	r := &RPC{owners: map[solana.Pubkey]bool{prog: true}}
	for _, tc := range []struct {
		name    string
		entries [][]byte
		want    []solana.Pubkey
	}{
		{"runs a followed program", [][]byte{mk(false, prog)}, []solana.Pubkey{acc}},
		{"failed", [][]byte{mk(true, prog)}, nil},
		{"another program", [][]byte{mk(false, otherProgram)}, nil},
		{"twice", [][]byte{mk(false, prog), mk(false, prog)}, []solana.Pubkey{acc}},
		{"does not parse", [][]byte{[]byte(`{"slot":5}`)}, nil},
	} {
		var got []solana.Pubkey
		for _, k := range r.writtenKeys(tc.entries) {
			got = append(got, k.key)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// bootstrapNode serves a chain whose accounts are listed at slot 20: 30
// token accounts of two sizes, 3 multisigs, 5 Core accounts, and an
// account of another program; blocks at 21 and 22 write one of them.
func bootstrapNode(t *testing.T) (*rpcnode.Node, map[solana.Pubkey]bool) {
	t.Helper()
	c := rpcnode.NewChain()
	listed := map[solana.Pubkey]bool{}
	for i := range 30 {
		size := 165
		if i%3 == 0 {
			size = 82
		}
		k := key(10, byte(i))
		c.Write(uint64(1+i%5), k, &rpcnode.Account{Owner: tokenProgram, Lamports: 1, Data: bytes.Repeat([]byte{byte(i)}, size)})
		listed[k] = true
	}
	for i := range 3 {
		c.Write(2, key(11, byte(i)), &rpcnode.Account{Owner: tokenProgram, Lamports: 1, Data: make([]byte, 355)})
	}
	for i := range 5 {
		k := key(12, byte(i))
		c.Write(3, k, &rpcnode.Account{Owner: coreProgram, Lamports: 1, Data: []byte{1, byte(i)}})
		listed[k] = true
	}
	c.Write(3, key(13), &rpcnode.Account{Owner: otherProgram, Lamports: 1, Data: []byte{1}})
	c.Write(21, key(10, 1), &rpcnode.Account{Owner: tokenProgram, Lamports: 1, Data: bytes.Repeat([]byte{0xee}, 165)})
	c.Write(22, key(12, 0), nil)
	n := c.Serve()
	t.Cleanup(n.Close)
	n.GrowFrom(20)
	return n, listed
}

func bootstrapReads() []decode.AccountRead {
	mint, account := uint64(82), uint64(165)
	return []decode.AccountRead{
		{Owner: tokenProgram, Filters: []decode.AccountFilter{{DataSize: &mint}}},
		{Owner: tokenProgram, Filters: []decode.AccountFilter{{DataSize: &account}}},
		{Owner: coreProgram},
	}
}

// The bootstrap lists the followed programs' accounts through their
// filters at the node's newest slot, a page at a time or (without
// getProgramAccountsV2) whole, seals that slot, then follows the blocks
// after it.
func TestRPCBootstrap(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hideV2   bool
		pageSize int
		noZstd   bool
	}{
		{"pages of 7", false, 7, false},
		{"one page", false, 0, false},
		{"no getProgramAccountsV2", true, 7, false},
		{"no base64+zstd", false, 7, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, listed := bootstrapNode(t)
			if tc.hideV2 {
				n.Hide("getProgramAccountsV2")
			}
			if tc.noZstd {
				n.RefuseZstd()
			}
			src := rpcSource(t, n, RPCOptions{To: 22, Bootstrap: true, Reads: bootstrapReads(), PageSize: tc.pageSize,
				Owners: []solana.Pubkey{tokenProgram, coreProgram}, Fetchers: 2})
			var items []Item
			var seals []uint64
			err := src.Read(context.Background(), func(it Item) error {
				if it.Kind == KindSeal {
					seals = append(seals, it.Slot)
				} else {
					items = append(items, it)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seals, []uint64{20, 21, 22}) {
				t.Fatalf("seals %v, want the listing's slot 20, then blocks 21 and 22", seals)
			}
			seen := map[solana.Pubkey]int{}
			for _, acc := range accountsOf(t, items) {
				if acc.Slot == 20 {
					seen[acc.Pubkey]++
					if acc.WriteVersion < 20 {
						t.Errorf("%s: write version below the listing's slot", describe(acc))
					}
				}
			}
			for k := range listed {
				if seen[k] != 1 {
					t.Errorf("%s listed %d times, want once", k, seen[k])
				}
			}
			if len(seen) != len(listed) {
				t.Errorf("%d accounts listed, want %d (not the multisigs nor the other program's)", len(seen), len(listed))
			}
			var after []string
			for _, acc := range accountsOf(t, items) {
				if acc.Slot > 20 {
					after = append(after, fmt.Sprintf("%d %s %d", acc.Slot, acc.Pubkey, len(acc.Data)))
				}
			}
			want := []string{fmt.Sprintf("21 %s 165", key(10, 1)), fmt.Sprintf("22 %s 0", key(12, 0))}
			if !slices.Equal(after, want) {
				t.Errorf("accounts after the listing %v, want %v", after, want)
			}
			v2, v1 := n.Calls("getProgramAccountsV2"), n.Calls("getProgramAccounts")
			switch {
			case tc.hideV2 && (v1 != 3 || v2 < 1 || v2 > 3):
				t.Errorf("%d getProgramAccounts and %d V2 calls, want each read once whole after a V2 refusal", v1, v2)
			case !tc.hideV2 && tc.pageSize == 7 && (v1 != 0 || v2 < 6):
				t.Errorf("%d getProgramAccounts and %d V2 calls, want pages of every read", v1, v2)
			case !tc.hideV2 && tc.pageSize == 0 && (v1 != 0 || v2 != 3):
				t.Errorf("%d getProgramAccounts and %d V2 calls, want one page per read", v1, v2)
			}
		})
	}
}

// A node answering badly costs a dead letter for each account it garbles,
// and another try for an answer that is not whole or not of the shape
// asked for, each retry logged; one that never answers well fails the
// read with an error naming the call, never a stall.
func TestRPCAccountAnswersMalformed(t *testing.T) {
	a := key(1)
	owner := tokenProgram.String()
	good := fmt.Sprintf(`{"lamports":1,"owner":%q,"data":["AQ==","base64"],"space":1}`, owner)
	answer := func(slot int, accounts ...string) rpcnode.Fault {
		return rpcnode.Fault(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":%d},"value":[%s]}}`, slot, strings.Join(accounts, ",")))
	}
	for _, tc := range []struct {
		name   string
		faults []rpcnode.Fault
		dead   string // the dead letter's error; "" for none
		tries  int    // getMultipleAccounts calls
		fails  string // Read's error; "" for none
	}{
		{"bad base64", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"lamports":1,"owner":%q,"data":["!!","base64"]}`, owner))}, "base64", 1, ""},
		{"data of another length than space", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"lamports":1,"owner":%q,"data":["AQ==","base64"],"space":3}`, owner))}, "space says 3", 1, ""},
		{"no lamports", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"owner":%q,"data":["AQ==","base64"]}`, owner))}, "no lamports", 1, ""},
		{"owner not a key", []rpcnode.Fault{answer(10, `{"lamports":1,"owner":"0OIl","data":["AQ==","base64"]}`)}, "owner", 1, ""},
		{"zstd garbage", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"lamports":1,"owner":%q,"data":["AQIDBA==","base64+zstd"]}`, owner))}, "zstd", 1, ""},
		{"data not a pair", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"lamports":1,"owner":%q,"data":"AQ=="}`, owner))}, "want [data, encoding]", 1, ""},
		{"negative lamports", []rpcnode.Fault{answer(10, fmt.Sprintf(`{"lamports":-1,"owner":%q,"data":["AQ==","base64"]}`, owner))}, "account", 1, ""},
		{"two accounts for one key", []rpcnode.Fault{answer(10, good, good)}, "", 2, ""},
		{"answered before the block", []rpcnode.Fault{answer(9, good)}, "", 2, ""},
		{"no context", []rpcnode.Fault{`{"jsonrpc":"2.0","id":1,"result":[null]}`}, "", 2, ""},
		{"truncated", []rpcnode.Fault{"truncate"}, "", 2, ""},
		{"not JSON, then busy", []rpcnode.Fault{"bad json", "429"}, "", 3, ""},
		{"node behind", []rpcnode.Fault{"-32016"}, "", 2, ""},
		{"result of another type", []rpcnode.Fault{`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":10},"value":7}}`}, "", 2, ""},
		{"never well", []rpcnode.Fault{"truncate", "truncate", "truncate"}, "", 3, "getMultipleAccounts after block 10"},
		{"silent midway", []rpcnode.Fault{"stall"}, "", 2, ""},
		{"invalid params", []rpcnode.Fault{"-32602"}, "", 1, "node error -32602"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rpcnode.NewChain()
			c.Write(10, a, &rpcnode.Account{Owner: tokenProgram, Lamports: 1, Data: []byte{1}})
			n := c.Serve()
			defer n.Close()
			n.FailCall("getMultipleAccounts", tc.faults...)
			var logs bytes.Buffer
			src := rpcSource(t, n, RPCOptions{From: 10, To: 10, Attempts: 3, Owners: []solana.Pubkey{tokenProgram},
				Timeout: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			items, err := readAll(ctx, src)
			if tc.fails != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fails) {
					t.Fatalf("err %v, want %q", err, tc.fails)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var dead []Item
			for _, it := range items {
				if it.Kind == KindBad {
					dead = append(dead, it)
				}
			}
			accs := accountsOf(t, items)
			switch {
			case tc.dead != "":
				if len(dead) != 1 || dead[0].Fail != "account" || !strings.Contains(dead[0].Err.Error(), tc.dead) || len(accs) != 0 {
					t.Fatalf("items %+v: want one dead letter about %q and no account", items, tc.dead)
				}
			case len(dead) != 0 || len(accs) != 1 || !bytes.Equal(accs[0].Data, []byte{1}):
				t.Fatalf("items %+v: want the account, read again", items)
			}
			if calls := n.Calls("getMultipleAccounts"); calls != tc.tries {
				t.Errorf("getMultipleAccounts called %d times, want %d", calls, tc.tries)
			}
			// Each retry and each dead letter says so, with the cause.
			retries := strings.Count(logs.String(), "asking again") + strings.Count(logs.String(), "dead-lettered")
			if want := tc.tries - 1 + len(dead); retries != want || want > 0 && !strings.Contains(logs.String(), "err=") {
				t.Errorf("%d log lines of retries and dead letters, want %d:\n%s", retries, want, logs.String())
			}
		})
	}
}

// A listing's garbled account is a dead letter and the others are kept;
// a page cut short or answered before the slot asked for is asked again.
func TestRPCListingMalformed(t *testing.T) {
	n, listed := bootstrapNode(t)
	page := func(ctxSlot int, accounts ...string) rpcnode.Fault {
		return rpcnode.Fault(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":%d},"value":{"accounts":[%s],"paginationKey":null}}}`,
			ctxSlot, strings.Join(accounts, ",")))
	}
	bad := fmt.Sprintf(`{"pubkey":%q,"account":{"lamports":1,"owner":%q,"data":["@@","base64+zstd"]}}`, key(10, 0), tokenProgram)
	foreign := fmt.Sprintf(`{"pubkey":%q,"account":{"lamports":1,"owner":%q,"data":["AQ==","base64"]}}`, key(13), otherProgram)
	// The first read (mints) gets a stale page, then a truncated one,
	// then a page with one good, one garbled and one foreign account.
	good := fmt.Sprintf(`{"pubkey":%q,"account":{"lamports":1,"owner":%q,"data":[%q,"base64"]}}`, key(10, 0), tokenProgram,
		"AAAA")
	n.FailCall("getProgramAccountsV2", page(19, good), "truncate", page(20, good, bad, foreign))
	src := rpcSource(t, n, RPCOptions{To: 20, Bootstrap: true, Reads: bootstrapReads()[:1], Fetchers: 1, Attempts: 4,
		Owners: []solana.Pubkey{tokenProgram, coreProgram}})
	items, err := readAll(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	var dead []string
	for _, it := range items {
		if it.Kind == KindBad {
			dead = append(dead, it.Err.Error())
		}
	}
	// The truncated answer's first accounts went out before it broke off:
	// they are real ones, and the good account of the last page is there.
	found := false
	for _, acc := range accountsOf(t, items) {
		if !listed[acc.Pubkey] {
			t.Errorf("%s is not an account of the node", acc.Pubkey)
		}
		found = found || acc.Pubkey == key(10, 0) && len(acc.Data) == 3
	}
	slices.Sort(dead) // the listing's accounts are checked in parallel
	if !found || len(dead) != 2 || !strings.Contains(dead[0], "base64") || !strings.Contains(dead[1], "owned by") {
		t.Fatalf("dead letters %q, good account found %v: want the good one kept, the garbled and the foreign one dead", dead, found)
	}
	if calls := n.Calls("getProgramAccountsV2"); calls != 3 {
		t.Errorf("getProgramAccountsV2 called %d times, want 3", calls)
	}
}
