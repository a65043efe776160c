package solbalances

import (
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest/decode"
)

func TestDecodeTx(t *testing.T) {
	k := func(b byte) solana.Pubkey { return solana.Pubkey{b} }
	base := func() *solana.Tx {
		return &solana.Tx{
			Slot: 9, TxIndex: 4, AccountKeys: []solana.Pubkey{k(1), k(2), k(3), k(4)},
			Instructions: []solana.Instruction{{ProgramID: k(3)}},
			Inner:        []solana.InnerInstruction{{Instruction: solana.Instruction{ProgramID: k(4)}}},
			PostBalances: []uint64{100, 200, 1, 1},
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*solana.Tx)
		want map[solana.Pubkey]uint64
	}{
		{"wallets, not invoked programs", func(*solana.Tx) {}, map[solana.Pubkey]uint64{k(1): 100, k(2): 200}},
		{"failed transactions pay fees", func(tx *solana.Tx) { tx.Err = []byte(`"x"`) }, map[solana.Pubkey]uint64{k(1): 100, k(2): 200}},
		{"no balances", func(tx *solana.Tx) { tx.PostBalances = nil }, map[solana.Pubkey]uint64{}},
		{"balances not one per key", func(tx *solana.Tx) { tx.PostBalances = tx.PostBalances[:3] }, map[solana.Pubkey]uint64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := base()
			tc.edit(tx)
			var out decode.Batch
			if err := (Decoder{}).DecodeTx(tx, &out); err != nil {
				t.Fatal(err)
			}
			got := map[solana.Pubkey]uint64{}
			for _, r := range out.Rows() {
				row := r.(*Row)
				if row.Slot != 9 || row.TxIndex != 4 {
					t.Errorf("row at %d/%d", row.Slot, row.TxIndex)
				}
				got[row.Address] = row.Lamports
			}
			if len(got) != len(tc.want) {
				t.Fatalf("rows %v, want %v", got, tc.want)
			}
			for a, l := range tc.want {
				if got[a] != l {
					t.Errorf("%s: %d, want %d", a, got[a], l)
				}
			}
		})
	}
}
