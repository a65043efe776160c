package grpcfollow_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	pb "github.com/dasch-labs/dasch/internal/geyserpb"
)

// mixedSlots is a stream of every kind of state the decoders derive:
// DAS fixtures (token, metadata, Core and inscription accounts, Bubblegum
// transactions), Photon compressed-token transactions, and token
// accounts written several times in each of a few slots. Writes that
// would collide (one account, one slot, one write version, other data)
// are left out: no real stream has them.
func mixedSlots(t *testing.T) []geysertest.Slot {
	t.Helper()
	var files []string
	for _, pattern := range []string{
		"das/accounts/mpl_core_get_asset*/*.json", "das/accounts/get_asset_with_show_inscription_scenario_1/*.json",
		"das/accounts/token_extensions_get_asset_scenario_1/*.json", "das/accounts/get_nft_editions/*.json",
		"das/transactions/mint_transfer_burn/*.json", "das/transactions/mint_v2_transfer_v2/*.json",
		"photon/transactions/e2e_mint_and_transfer_transactions/*.json", "photon/transactions/batched_tree_token_transactions/*.json",
	} {
		m, err := filepath.Glob(filepath.Join(corpus, pattern))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v", pattern, err)
		}
		files = append(files, m...)
	}
	type write struct {
		key      solana.Pubkey
		slot, wv uint64
	}
	seen := map[write]bool{}
	var keep []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := solana.ParseAccount(raw); err == nil {
			w := write{a.Pubkey, a.Slot, a.WriteVersion}
			if seen[w] {
				continue
			}
			seen[w] = true
		}
		keep = append(keep, f)
	}
	slots, err := geysertest.Slots(keep)
	if err != nil {
		t.Fatal(err)
	}
	// Several writes of a few token accounts in every slot, out of
	// order within the slot.
	for i := range slots {
		for w := uint64(3); w > 0; w-- {
			for a := range uint64(3) {
				slots[i].Accounts = append(slots[i].Accounts, geysertest.AccountWrite(geysertest.Key("rough", a), token.TokenProgram(),
					slots[i].Slot+w, 1000+w*10+a, fmt.Appendf(nil, "slot %d write %d", slots[i].Slot, w)))
			}
		}
	}
	return slots
}

// rough adds slots that must leave nothing behind: after every third real
// slot an orphan (its writes sent, no status ever) and a dead slot.
func rough(slots []geysertest.Slot) []geysertest.Slot {
	var out []geysertest.Slot
	for i, s := range slots {
		out = append(out, s)
		if i%3 != 0 || i+1 == len(slots) || slots[i+1].Slot < s.Slot+3 {
			continue
		}
		junk := geysertest.AccountWrite(geysertest.Key("junk", s.Slot), token.TokenProgram(), 1, 1, []byte("never"))
		out = append(out,
			geysertest.Slot{Slot: s.Slot + 1, Parent: s.Slot, Orphan: true, Accounts: []*pb.SubscribeUpdateAccountInfo{junk},
				Txs: slices.Clone(s.Txs)},
			geysertest.Slot{Slot: s.Slot + 2, Parent: s.Slot, Dead: true, Accounts: []*pb.SubscribeUpdateAccountInfo{junk}})
	}
	return out
}

// A stream cut off again and again, repeating updates, sending each
// slot's writes in reverse, replaying more than asked, with slots that
// die or never complete, and ingests stopped and started again at
// arbitrary slots, leave every table as one uninterrupted stream does,
// as FINAL reads see it.
func TestRoughStreamLeavesSameTables(t *testing.T) {
	e := newEnv(t)
	slots := mixedSlots(t)
	first, last := slots[0].Slot, slots[len(slots)-1].Slot

	e.reset()
	plain := geysertest.Start(t, geysertest.Script{Slots: slots, FinalizeLag: 2})
	st := e.stream(plain, false, source.GRPCOptions{From: &first, To: last})
	want := e.tables()
	if st.Accounts == 0 || st.Txs == 0 || want["asset_state"] == "" || want["compressed_accounts"] == "" {
		t.Fatalf("the uninterrupted stream indexed %d accounts, %d transactions: want assets and compressed state", st.Accounts, st.Txs)
	}

	e.reset()
	srv := geysertest.Start(t, geysertest.Script{Slots: rough(slots), FinalizeLag: 2,
		Disconnects: []int{5, 0, 17, 2, 40, 9, 60, 1, 33}, Duplicate: 2, Reverse: true, ReplayOverlap: 3, PingEvery: 4})
	// Three ingests, each stopped at a slot of its own; the later ones
	// resume after the indexed slot, as dasch ingest does.
	stops := []uint64{slots[len(slots)/3].Slot, slots[2*len(slots)/3].Slot + 1, last}
	from := first
	for _, to := range stops {
		e.stream(srv, false, source.GRPCOptions{From: &from, To: to})
		indexed, err := checkpoint.ContextSlot(t.Context(), e.s)
		if err != nil {
			t.Fatal(err)
		}
		from = indexed + 1
	}
	if srv.Streams() < 10 {
		t.Errorf("%d streams: want the scripted disconnects and restarts", srv.Streams())
	}
	sameTables(t, "rough stream", e.tables(), want)
}
