package solana

import (
	"os"
	"path/filepath"
	"testing"
)

// fixture reads a file under chain/testdata.
func fixture(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustKey(t *testing.T, s string) Pubkey {
	t.Helper()
	k, err := ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

const (
	photonTxDir  = "photon/transactions/e2e_mint_and_transfer_transactions/"
	photonMint   = "64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4"
	voteBlock    = "photon/blocks/get_lanon_voting_signatures/270893658.json"
	lookupBlock  = "photon/blocks/index_compress_and_close_with_tlv/443787702.json"
	dasLegacyTx  = "das/transactions/3Ct9n9hv5PWEYbsrgDdUDqegzsnX2n5jYRxkq5YafFAueup8mTYmN4nHhNCaEwVyVAVqNssr4fizdg9wRavT7ydE.json"
	dasV0Tx      = "das/transactions/5bNyZfmxLVP9cKc6GjvozExrSt4F1QFt4PP992pQwT8FFHdWsX3ZFNvwurfU2xpDYtQ7qAUxVahGCraXMevRH8p1.json"
	dasRentMax   = "das/accounts/wKocBVvHQoVaiwWoCs9JYSVye4YZRrv5Cucf7fDqnz1.json"
	dasRentZero  = "das/accounts/AhbbU3exDvvM9cBzHxEjpYt4sMfFsXuQ3FUXv9VPE4F7.json"
	computeBudgt = "ComputeBudget111111111111111111111111111111"
)
