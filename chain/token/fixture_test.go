package token

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/fixture"
)

// corpusDir holds the shared DAS conformance corpus, outside the module.
const corpusDir = "../../../shared/corpus/das/accounts"

// loadAccount reads one account fixture, skipping when the corpus is absent.
func loadAccount(t testing.TB, dir, pubkey string) *solana.Account {
	t.Helper()
	fixture.SkipWithout(t, corpusDir)
	return fixture.Account(t, corpusDir, dir, pubkey)
}

func pk(t testing.TB, s string) solana.Pubkey { return fixture.Pubkey(t, s) }
