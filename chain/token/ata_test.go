package token

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

// TestAssociatedTokenAddress checks a known associated token account: the
// corpus's token account BE1C... of owner 2oerf... for mint JUPy....
func TestAssociatedTokenAddress(t *testing.T) {
	owner := solana.MustParsePubkey("2oerfxddTpK5hWAmCMYB6fr9WvNrjEH54CHCWK8sAq7g")
	mint := solana.MustParsePubkey("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN")
	got := AssociatedTokenAddress(owner, mint, TokenProgram())
	if want := "BE1CkzRjLTXAWcSVCaqzycwXsZ18Yuk3jMDMnPUoHjjS"; got.String() != want {
		t.Errorf("ATA %s, want %s", got, want)
	}
}
