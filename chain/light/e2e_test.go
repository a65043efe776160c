package light

import (
	"encoding/json"
	"sort"
	"testing"
)

const (
	e2eMint    = "2U35cKS3Cj2xs5EBdByXYU7LaKAitqjSZc1Jnvu4iPf4"
	e2eBob     = "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"
	e2eCharles = "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX"
)

// TestE2ETokenLedger rebuilds the token ledger of the mint-and-transfer
// set (README section 6): 1000 minted to Bob, then three transfers.
func TestE2ETokenLedger(t *testing.T) {
	c := loadCase(t, "e2e_mint_and_transfer_transactions-bob-accounts")
	evs := indexCase(t, c, testTrees(t))

	tokenOutputs := 0
	for _, ev := range evs {
		if !ev.Compression {
			t.Errorf("%s: not marked as a compression transaction", ev.Signature)
		}
		for _, o := range ev.Outputs {
			if o.Token == nil {
				t.Errorf("output %s: not a token account", o.Hash)
				continue
			}
			tokenOutputs++
			if o.Token.Delegate != nil {
				t.Errorf("output %s: delegate %s, want none", o.Hash, o.Token.Delegate)
			}
		}
	}
	if tokenOutputs != 7 {
		t.Errorf("%d token outputs, want 7", tokenOutputs)
	}

	balances := map[[2]string]uint64{}
	for _, o := range unspent(evs) {
		balances[[2]string{o.Token.Owner.String(), o.Token.Mint.String()}] += o.Token.Amount
	}
	want := map[[2]string]uint64{{e2eBob, e2eMint}: 105, {e2eCharles, e2eMint}: 895}
	if len(balances) != len(want) {
		t.Errorf("balances %v, want %v", balances, want)
	}
	for k, v := range want {
		if balances[k] != v {
			t.Errorf("balance of %s in %s = %d, want %d", k[0], k[1], balances[k], v)
		}
	}

	// The derived holders case states the same ledger from the API side.
	var holders struct {
		Value struct {
			Items []struct {
				Owner   string `json:"owner"`
				Balance uint64 `json:"balance"`
			} `json:"items"`
		} `json:"value"`
	}
	if err := json.Unmarshal(loadCase(t, "derived-holders-all").ExpectedResult, &holders); err != nil {
		t.Fatal(err)
	}
	for _, h := range holders.Value.Items {
		if got := balances[[2]string{h.Owner, e2eMint}]; got != h.Balance {
			t.Errorf("holder %s: balance %d, want %d", h.Owner, got, h.Balance)
		}
	}
}

// TestE2EUnspentTokenAccounts checks every field of Bob's unspent token
// accounts against getCompressedTokenAccountsByOwner[V2].
func TestE2EUnspentTokenAccounts(t *testing.T) {
	trees := testTrees(t)
	for _, name := range []string{
		"e2e_mint_and_transfer_transactions-bob-accounts",
		"e2e_mint_and_transfer_transactions-bob-accounts-v2",
	} {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name)
			var req struct {
				Params struct {
					Owner string `json:"owner"`
				} `json:"params"`
			}
			if err := json.Unmarshal(c.Request, &req); err != nil {
				t.Fatal(err)
			}
			var res struct {
				Value struct {
					Items []struct {
						Account   wantAccount `json:"account"`
						TokenData wantToken   `json:"tokenData"`
					} `json:"items"`
				} `json:"value"`
			}
			if err := json.Unmarshal(c.ExpectedResult, &res); err != nil {
				t.Fatal(err)
			}
			var got []OutputAccount
			for _, o := range unspent(indexCase(t, c, trees)) {
				if o.Token != nil && o.Token.Owner.String() == req.Params.Owner {
					got = append(got, o)
				}
			}
			// Photon orders by mint, then hash; there is one mint here.
			sort.Slice(got, func(i, j int) bool { return hashLess(got[i].Hash, got[j].Hash) })
			if len(got) != len(res.Value.Items) {
				t.Fatalf("%d unspent accounts, want %d", len(got), len(res.Value.Items))
			}
			for i, item := range res.Value.Items {
				checkAccount(t, &item.Account, &item.TokenData, &got[i])
			}
		})
	}
}

// TestE2ETransactionAccounts checks single transactions against
// getTransactionWithCompressionInfo[V2]: opened accounts are the outputs
// (created at the transaction's real slot), closed accounts the inputs.
func TestE2ETransactionAccounts(t *testing.T) {
	trees := testTrees(t)
	for _, name := range []string{
		"e2e_mint_and_transfer_transactions-mint-transaction",
		"e2e_mint_and_transfer_transactions-mint-transaction-v2",
		"e2e_mint_and_transfer_transactions-transfer-transaction",
		"e2e_mint_and_transfer_transactions-transfer-transaction-v2",
	} {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name)
			var req struct {
				Params struct {
					Signature string `json:"signature"`
				} `json:"params"`
			}
			if err := json.Unmarshal(c.Request, &req); err != nil {
				t.Fatal(err)
			}
			var res struct {
				CompressionInfo struct {
					Opened []struct {
						Account   wantAccount `json:"account"`
						TokenData *wantToken  `json:"optionalTokenData"`
					} `json:"openedAccounts"`
					Closed []struct {
						Account json.RawMessage `json:"account"`
					} `json:"closedAccounts"`
				} `json:"compressionInfo"`
			}
			if err := json.Unmarshal(c.ExpectedResult, &res); err != nil {
				t.Fatal(err)
			}
			ev := mustParse(t, loadTx(t, "e2e_mint_and_transfer_transactions", req.Params.Signature), trees)
			opened := res.CompressionInfo.Opened
			if len(ev.Outputs) != len(opened) {
				t.Fatalf("%d outputs, want %d", len(ev.Outputs), len(opened))
			}
			for i := range opened {
				checkAccount(t, &opened[i].Account, opened[i].TokenData, &ev.Outputs[i])
				if ev.Outputs[i].Signature != ev.Signature {
					t.Errorf("output %d: signature not set", i)
				}
			}
			closed := map[string]bool{}
			for _, cl := range res.CompressionInfo.Closed {
				// V1 wraps the account once, V2 twice (with nullifier and txHash).
				var acc struct {
					Hash    string `json:"hash"`
					Account *struct {
						Hash string `json:"hash"`
					} `json:"account"`
				}
				if err := json.Unmarshal(cl.Account, &acc); err != nil {
					t.Fatal(err)
				}
				h := acc.Hash
				if acc.Account != nil {
					h = acc.Account.Hash
				}
				closed[h] = true
			}
			if len(ev.Inputs) != len(closed) {
				t.Fatalf("%d inputs, want %d", len(ev.Inputs), len(closed))
			}
			for _, in := range ev.Inputs {
				if !closed[in.Hash.String()] {
					t.Errorf("input %s is not a closed account", in.Hash)
				}
				if in.V2 != nil {
					t.Errorf("input %s in a V1 tree has V2 details", in.Hash)
				}
			}
		})
	}
}

// TestE2EStateTreeRoot recomputes the V1 tree smt1 from the parsed leaves
// and compares it with the roots and root sequence numbers Photon serves in
// getMultipleCompressedAccountProofs.
func TestE2EStateTreeRoot(t *testing.T) {
	trees := testTrees(t)
	p := grainParams(3)
	for _, name := range []string{
		"e2e_mint_and_transfer_transactions-bob-proofs",
		"e2e_mint_and_transfer_transactions-charles-proofs",
		"nullfiier_and_address_queue_transactions-proofs",
	} {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name)
			evs := indexCase(t, c, trees)
			var res struct {
				Value []struct {
					Hash       string `json:"hash"`
					Root       string `json:"root"`
					LeafIndex  uint64 `json:"leafIndex"`
					MerkleTree string `json:"merkleTree"`
					RootSeq    uint64 `json:"rootSeq"`
				} `json:"value"`
			}
			if err := json.Unmarshal(c.ExpectedResult, &res); err != nil {
				t.Fatal(err)
			}
			for _, want := range res.Value {
				info, ok := trees.Tree(mustPubkey(t, want.MerkleTree))
				if !ok {
					t.Fatalf("tree %s not seeded", want.MerkleTree)
				}
				leaves := map[uint64]Hash{}
				var maxSeq uint64
				for _, ev := range evs {
					for _, o := range ev.Outputs {
						if o.Tree == info.Tree {
							leaves[uint64(o.LeafIndex)] = o.Hash
							maxSeq = max(maxSeq, *o.Seq)
						}
					}
					// A forester nullification zeroes the leaf.
					for _, n := range ev.Nullifications {
						if n.Tree == info.Tree {
							delete(leaves, n.LeafIndex)
							maxSeq = max(maxSeq, n.Seq)
						}
					}
				}
				if got := leaves[want.LeafIndex]; got.String() != want.Hash {
					t.Errorf("leaf %d = %s, want %s", want.LeafIndex, got, want.Hash)
				}
				if got := sparseRoot(t, p, int(info.Height), leaves); got.String() != want.Root {
					t.Errorf("root %s, want %s", got, want.Root)
				}
				if maxSeq != want.RootSeq {
					t.Errorf("root seq %d, want %d", maxSeq, want.RootSeq)
				}
			}
		})
	}
}

// TestOldProgramIDsYieldNothing: sets recorded with the pre-2024-08 Light
// program ids produce no events (the stale bob-accounts cases are empty).
func TestOldProgramIDsYieldNothing(t *testing.T) {
	trees := testTrees(t)
	for _, name := range []string{
		"e2e_mint_and_transfer_legacy_transactions-bob-accounts",
		"e2e_mint_and_transfer_new_transactions-bob-accounts",
	} {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name)
			var res struct {
				Value struct {
					Items []json.RawMessage `json:"items"`
				} `json:"value"`
			}
			if err := json.Unmarshal(c.ExpectedResult, &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Value.Items) != 0 {
				t.Fatalf("case expects %d items", len(res.Value.Items))
			}
			for _, tx := range loadSet(t, c.FixtureSets[0][len("transactions/"):]) {
				ev := mustParse(t, tx, trees)
				if ev.Compression || len(ev.Outputs)+len(ev.Inputs)+len(ev.NewAddresses)+len(ev.Nullifications)+
					len(ev.IndexedUpdates)+len(ev.BatchUpdates) != 0 {
					t.Errorf("%s: events from an old program id: %+v", tx.Signatures[0], ev)
				}
			}
		})
	}
}
