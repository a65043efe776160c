package light

import (
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

const (
	e2eTransferSig = "5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV"
	// A batched-tree transaction spending one V2 account and creating one.
	v2SpendSig = "2EBo2DbvuTz8VYWG5GFM8diJpoUerB4CekrqX7mkoRrU2rxgVKi2yJdLU9Yoze2AEDWB4QaaRfxEGBV9w14rWhkv"
)

// cloneTx copies a transaction deeply enough to change instruction data.
func cloneTx(tx *solana.Tx) *solana.Tx {
	c := *tx
	c.Instructions = slices.Clone(tx.Instructions)
	c.Inner = slices.Clone(tx.Inner)
	for i := range c.Instructions {
		c.Instructions[i].Data = slices.Clone(c.Instructions[i].Data)
	}
	for i := range c.Inner {
		c.Inner[i].Data = slices.Clone(c.Inner[i].Data)
	}
	return &c
}

// innerOf returns the first inner instruction of program whose data starts
// with prefix.
func innerOf(t *testing.T, tx *solana.Tx, program solana.Pubkey, prefix ...byte) *solana.Instruction {
	t.Helper()
	for i := range tx.Inner {
		in := &tx.Inner[i].Instruction
		if in.ProgramID == program && len(in.Data) >= len(prefix) && string(in.Data[:len(prefix)]) == string(prefix) {
			return in
		}
	}
	t.Fatalf("no inner instruction of %s", program)
	return nil
}

func TestParseMalformed(t *testing.T) {
	trees := testTrees(t)
	legacy := loadTx(t, "e2e_mint_and_transfer_transactions", e2eTransferSig)
	v2 := loadTx(t, "batch_append_spent", v2SpendSig)
	queues := []byte{180, 143, 159, 153, 35, 46, 248, 163}
	tests := []struct {
		name   string
		tx     *solana.Tx
		mutate func(t *testing.T, tx *solana.Tx)
		want   []string
	}{
		{
			name: "truncated Noop event",
			tx:   legacy,
			mutate: func(t *testing.T, tx *solana.Tx) {
				in := innerOf(t, tx, NoopProgram())
				in.Data = in.Data[:100]
			},
			want: []string{"instruction 1 inner 5", "Noop PublicTransactionEvent"},
		},
		{
			name: "Noop event with a bad option tag",
			tx:   legacy,
			mutate: func(t *testing.T, tx *solana.Tx) {
				in := innerOf(t, tx, NoopProgram())
				in.Data = in.Data[:len(in.Data)-1] // drop the message option tag
			},
			want: []string{"Noop PublicTransactionEvent", "message"},
		},
		{
			name: "truncated InsertIntoQueues",
			tx:   v2,
			mutate: func(t *testing.T, tx *solana.Tx) {
				in := innerOf(t, tx, AccountCompressionProgram(), queues...)
				in.Data = in.Data[:60]
			},
			want: []string{"account-compression InsertIntoQueues", "leaves"},
		},
		{
			name: "InsertIntoQueues nullifier tree out of range",
			tx:   v2,
			mutate: func(t *testing.T, tx *solana.Tx) {
				in := innerOf(t, tx, AccountCompressionProgram(), queues...)
				// header 12+38, one leaf (1+33), nullifier count, then the
				// nullifier's tree index at byte 37 of its 39.
				in.Data[12+38+1+33+1+37] = 200
			},
			want: []string{"InsertIntoQueues nullifier 0", "tree index 200 out of range"},
		},
		{
			name: "truncated system instruction",
			tx:   v2,
			mutate: func(t *testing.T, tx *solana.Tx) {
				tx.Instructions[1].Data = tx.Instructions[1].Data[:40]
			},
			want: []string{"instruction 1", "Light system program", "invoke"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tx := cloneTx(tc.tx)
			tc.mutate(t, tx)
			_, err := Parse(tx, trees)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestParseFailedTransaction(t *testing.T) {
	for _, tc := range []struct{ set, sig string }{
		{"e2e_mint_and_transfer_transactions", e2eTransferSig},
		{"batch_append_spent", v2SpendSig},
	} {
		tx := cloneTx(loadTx(t, tc.set, tc.sig))
		tx.Err = []byte(`{"InstructionError":[1,{"Custom":6001}]}`)
		ev := mustParse(t, tx, testTrees(t))
		if ev.Compression || len(ev.Outputs)+len(ev.Inputs) != 0 {
			t.Errorf("%s: failed transaction produced events: %+v", tc.sig, ev)
		}
		if ev.Signature != tx.Signatures[0] {
			t.Errorf("%s: signature not set", tc.sig)
		}
	}
}

func TestParseUnknownTree(t *testing.T) {
	tx := loadTx(t, "e2e_mint_and_transfer_transactions", e2eTransferSig)
	ev, err := Parse(tx, NewTreeMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Outputs) != 2 || len(ev.Inputs) != 1 {
		t.Fatalf("%d outputs, %d inputs", len(ev.Outputs), len(ev.Inputs))
	}
	for _, o := range ev.Outputs {
		if !o.UnknownTree || o.Seq != nil || o.Queue != (solana.Pubkey{}) {
			t.Errorf("output %s: unknown %v seq %v queue %s", o.Hash, o.UnknownTree, fmtOpt(o.Seq), o.Queue)
		}
		if o.Tree.String() != "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT" {
			t.Errorf("output %s: tree %s, want the pubkey the event named", o.Hash, o.Tree)
		}
		if o.Token == nil {
			t.Errorf("output %s: token data not decoded", o.Hash)
		}
	}
}

func TestParseBadArguments(t *testing.T) {
	trees := testTrees(t)
	tx := loadTx(t, "e2e_mint_and_transfer_transactions", e2eTransferSig)
	noSig := cloneTx(tx)
	noSig.Signatures = nil
	badIndex := cloneTx(tx)
	badIndex.Inner[0].Accounts = append(slices.Clone(badIndex.Inner[0].Accounts), 250)
	tests := []struct {
		name  string
		tx    *solana.Tx
		trees TreeLookup
		want  string
	}{
		{"nil transaction", nil, trees, "without signature"},
		{"no signature", noSig, trees, "without signature"},
		{"no tree lookup", tx, nil, "no tree lookup"},
		{"account index out of range", badIndex, trees, "instruction 1 inner 0: account index 250"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.tx, tc.trees)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

// TestNoopEventAfterRolloverFees: the Noop event may follow two native
// transfers (network fee and tree rollover fee) instead of one.
func TestNoopEventAfterRolloverFees(t *testing.T) {
	tx := loadSet(t, "transaction_with_tree_rollover_fee")[0]
	ev := mustParse(t, tx, testTrees(t))
	if !ev.Compression || len(ev.Outputs) != 2 || len(ev.Inputs) != 1 {
		t.Fatalf("compression %v, %d outputs, %d inputs; want true, 2, 1", ev.Compression, len(ev.Outputs), len(ev.Inputs))
	}
	for _, o := range ev.Outputs {
		if o.UnknownTree || o.TreeType != TreeStateV1 || o.Seq == nil || o.Token == nil {
			t.Errorf("output %s: %+v", o.Hash, o)
		}
	}
}
