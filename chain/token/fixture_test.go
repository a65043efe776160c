package token

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// corpusDir holds the shared DAS conformance corpus, outside the module.
const corpusDir = "../../../shared/corpus/das/accounts"

// loadAccount reads one account fixture, skipping when the corpus is absent.
func loadAccount(t testing.TB, dir, pubkey string) *solana.Account {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(corpusDir, dir, pubkey+".json"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := solana.ParseAccount(raw)
	if err != nil {
		t.Fatalf("%s/%s: %v", dir, pubkey, err)
	}
	return a
}

func pk(t testing.TB, s string) solana.Pubkey {
	t.Helper()
	k, err := solana.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
