package parsedtx

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/chain/parsed"
	"github.com/dasch-labs/dasch/chain/solana"
)

// TestSwapRows: a route files its legs in order after the whole swap,
// each column as the leg has it.
func TestSwapRows(t *testing.T) {
	k := func(b byte) solana.Pubkey { return solana.Pubkey{b} }
	var sig solana.Signature
	sig[0] = 3
	tx := &solana.Tx{Slot: 9, TxIndex: 4, Signatures: []solana.Signature{sig}}
	legs := []parsed.SwapLeg{
		{Protocol: "JUPITER", ProgramID: k(1), User: k(2), InputMint: k(3), OutputMint: k(5), InAmount: 10, OutAmount: 30, InputDecimals: 6, OutputDecimals: 9},
		{Protocol: "ORCA", ProgramID: k(6), User: k(2), InputMint: k(3), OutputMint: k(4), InAmount: 10, OutAmount: 20, InputDecimals: 6, OutputDecimals: 8},
		{Protocol: "RAYDIUM", ProgramID: k(7), User: k(2), InputMint: k(4), OutputMint: k(5), InAmount: 20, OutAmount: 30, InputDecimals: 8, OutputDecimals: 9},
	}
	rows := swapRows(tx, tx.Signature(), &parsed.Transaction{Swaps: legs}, 77)
	if len(rows) != len(legs) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		l := legs[i]
		want := SwapRow{Slot: 9, TxIndex: 4, Signature: sig, Leg: uint16(i), BlockTime: 77, Protocol: l.Protocol, ProgramID: l.ProgramID, User: l.User,
			InputMint: l.InputMint, OutputMint: l.OutputMint, InAmount: l.InAmount, OutAmount: l.OutAmount, InputDecimals: l.InputDecimals, OutputDecimals: l.OutputDecimals}
		if *r != want {
			t.Errorf("row %d %+v, want %+v", i, *r, want)
		}
	}
	if rows := swapRows(tx, tx.Signature(), &parsed.Transaction{}, 77); len(rows) != 0 {
		t.Errorf("rows without a swap: %+v", rows)
	}
	b := newSwapBuilder(memory.NewGoAllocator())
	if err := b.Append(&AddressRow{}); err == nil {
		t.Error("swap builder took an address row")
	}
}
