package token

import (
	sgo "github.com/gagliardetto/solana-go"

	"github.com/dasch-labs/dasch/chain/solana"
)

var associatedTokenProgram = solana.MustParsePubkey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")

// AssociatedTokenAddress is the associated token account of owner for
// mint under token program program (SPL Token or Token-2022).
func AssociatedTokenAddress(owner, mint, program solana.Pubkey) solana.Pubkey {
	k, _, err := sgo.FindProgramAddress([][]byte{owner[:], program[:], mint[:]}, sgo.PublicKey(associatedTokenProgram))
	if err != nil {
		// Cannot happen for 32-byte seeds: the chance that no bump in
		// 255..1 gives an off-curve point is about 2^-255.
		panic(err)
	}
	return solana.Pubkey(k)
}
