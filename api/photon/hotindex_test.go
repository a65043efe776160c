package photon

import (
	"reflect"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/query/compressed"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// fakeHot records the pages asked of it and answers at its own slot;
// loading makes it not Ready, as an index still loading is, and notHeld
// has it hold no key, as a budget leaves some owners and mints out.
type fakeHot struct {
	slot     uint64
	err      error
	loading  bool
	notHeld  bool
	holders  []compressed.HolderPage
	balances []compressed.BalancePage
}

func (f *fakeHot) Ready() bool { return !f.loading }

func (f *fakeHot) Holders(_ compressed.Key, p compressed.HolderPage) ([]compressed.Holder, uint64, bool, error) {
	f.holders = append(f.holders, p)
	if f.notHeld {
		return nil, 0, false, nil
	}
	return []compressed.Holder{{Owner: key(1), Balance: 5}}, f.slot, true, f.err
}

func (f *fakeHot) Balances(_ compressed.Key, p compressed.BalancePage) ([]compressed.TokenBalance, uint64, bool, error) {
	f.balances = append(f.balances, p)
	if f.notHeld {
		return nil, 0, false, nil
	}
	return []compressed.TokenBalance{{Mint: key(2), Balance: 6}}, f.slot, true, f.err
}

// TestHotIndexServes checks that with a hot index the methods pass the
// page through, stamp the index's slot and report "not indexed" as the
// store path does; while it loads, the store answers.
func TestHotIndexServes(t *testing.T) {
	after := compressed.HolderCursor{Balance: 9, Owner: key(3)}
	m := key(4)
	tests := []struct {
		name, method, params string
		hot                  *fakeHot
		wantSlot             string // "" when an error is expected
		wantErr              string
		holders              []compressed.HolderPage
		balances             []compressed.BalancePage
	}{
		{"holders", "getCompressedMintTokenHolders",
			`{"mint":"` + keyB58(key(8)) + `","limit":2,"showZeroBalance":true,"cursor":"` + base58.Encode(after.Bytes()) + `"}`,
			&fakeHot{slot: 3}, "3", "", []compressed.HolderPage{{After: &after, Limit: 2, WithZero: true}}, nil},
		{"balances", "getCompressedTokenBalancesByOwnerV2",
			`{"owner":"` + keyB58(key(8)) + `","mint":"` + keyB58(m) + `","cursor":"` + keyB58(key(1)) + `"}`,
			&fakeHot{slot: 4}, "4", "", nil, []compressed.BalancePage{{Mint: &m, AfterMint: ptrKey(key(1)), Limit: pageLimit}}},
		{"not indexed", "getCompressedTokenBalancesByOwner", `{"owner":"` + keyB58(key(8)) + `"}`,
			&fakeHot{err: checkpoint.ErrNotIndexed}, "", "Record Not Found: No data has been indexed", nil, []compressed.BalancePage{{Limit: pageLimit}}},
		// Still loading: the store answers at its indexed slot (7) and
		// the index is asked nothing.
		{"loading, holders", "getCompressedMintTokenHolders", `{"mint":"` + keyB58(key(8)) + `"}`,
			&fakeHot{slot: 3, loading: true}, "7", "", nil, nil},
		{"loading, balances", "getCompressedTokenBalancesByOwnerV2", `{"owner":"` + keyB58(key(8)) + `"}`,
			&fakeHot{slot: 3, loading: true}, "7", "", nil, nil},
		// Not held (past the budget): asked, then the store answers.
		{"not held, holders", "getCompressedMintTokenHolders", `{"mint":"` + keyB58(key(8)) + `"}`,
			&fakeHot{slot: 3, notHeld: true}, "7", "", []compressed.HolderPage{{Limit: pageLimit}}, nil},
		{"not held, balances", "getCompressedTokenBalancesByOwnerV2", `{"owner":"` + keyB58(key(8)) + `"}`,
			&fakeHot{slot: 3, notHeld: true}, "7", "", nil, []compressed.BalancePage{{Limit: pageLimit}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, true)
			e.reg = jsonrpc.NewRegistry()
			Register(e.reg, Deps{Store: e.s, Slots: checkpoint.NewSlotCache(e.s, time.Duration(0)), Hot: tc.hot})
			res, err := e.call(tc.method, tc.params)
			if tc.wantErr != "" {
				if err == nil || err.Message != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				slot := res.(map[string]any)["context"].(map[string]any)["slot"]
				if got := slot.(interface{ String() string }).String(); got != tc.wantSlot {
					t.Errorf("context slot %s, want %s", got, tc.wantSlot)
				}
			}
			if !reflect.DeepEqual(tc.hot.holders, tc.holders) || !reflect.DeepEqual(tc.hot.balances, tc.balances) {
				t.Errorf("pages asked %+v %+v, want %+v %+v", tc.hot.holders, tc.hot.balances, tc.holders, tc.balances)
			}
		})
	}
}

func ptrKey(k compressed.Key) *compressed.Key { return &k }
