package assetstate_test

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/chain/token"
	"github.com/dasch-labs/dasch/chain/token/tokentest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// A write of a token account holding more than one token refolds
// nothing (no answer reads it); one holding one token or none refolds
// its mint, whose holder it may be.
func TestFungibleBalancesRefoldNothing(t *testing.T) {
	key := func(b byte) solana.Pubkey { return solana.Pubkey{b, 1, 2, 3} }
	fungible, nft := key(1), key(2)
	mintOf := func(m solana.Pubkey, supply uint64, decimals uint8) write {
		auth := key(9)
		data, err := tokentest.EncodeMint(&token.Mint{Program: token.TokenProgram(), MintAuthority: &auth, Supply: supply,
			Decimals: decimals, IsInitialized: true})
		if err != nil {
			t.Fatal(err)
		}
		return write{acc: &solana.Account{Owner: token.TokenProgram(), Lamports: 1, Data: data}, key: m, slot: 1}
	}
	holder := func(addr byte, m solana.Pubkey, owner byte, amount, slot uint64) write {
		data := tokentest.EncodeTokenAccount(&token.TokenAccount{Program: token.TokenProgram(), Mint: m, Owner: key(owner),
			Amount: amount, State: token.StateInitialized})
		return write{acc: &solana.Account{Owner: token.TokenProgram(), Lamports: 1, Data: data}, key: key(addr), slot: slot}
	}
	files := func(ws ...write) []string {
		dir := t.TempDir()
		var out []string
		for i, w := range ws {
			p := filepath.Join(dir, string(rune('a'+i))+".json")
			if err := os.WriteFile(p, accountJSON(w), 0o644); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	var mu sync.Mutex
	var folded []solana.Pubkey
	step := assetstate.NewFoldStep()
	step.Folded = func(ids []solana.Pubkey) {
		mu.Lock()
		defer mu.Unlock()
		folded = append(folded, ids...)
	}
	s := storetest.Open(t)
	index(t, s, [][]string{files(mintOf(fungible, 1000, 6), mintOf(nft, 1, 0),
		holder(10, fungible, 20, 600, 1), holder(11, fungible, 21, 400, 1), holder(12, nft, 22, 1, 1))}, step)
	if !slices.Contains(folded, fungible) || !slices.Contains(folded, nft) {
		t.Fatalf("first fold: %v", folded)
	}
	folded = nil
	// A transfer of fungible tokens, and the NFT moving to a new account.
	index(t, s, [][]string{files(holder(10, fungible, 20, 500, 2), holder(11, fungible, 21, 500, 2),
		holder(12, nft, 22, 0, 2), holder(13, nft, 23, 1, 2))}, step)
	if slices.Contains(folded, fungible) || !slices.Contains(folded, nft) {
		t.Fatalf("after the transfers, folded %v: want the NFT %s, not the fungible %s", folded, nft, fungible)
	}
	checkFolded(t, s)
}
