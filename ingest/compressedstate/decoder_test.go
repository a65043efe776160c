package compressedstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/config"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/schema"
)

func defaultTrees(t *testing.T) light.TreeLookup {
	t.Helper()
	m, err := light.LoadTrees(bytes.NewReader(config.DefaultTrees()))
	if err != nil {
		t.Fatal(err)
	}
	return light.NewTreeMap(m)
}

func loadTx(t *testing.T, sig string) *solana.Tx {
	t.Helper()
	raw, err := os.ReadFile(txPath(sig))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// failedCopy returns the raw transaction with an error in its meta.
func failedCopy(t *testing.T, sig string) []byte {
	t.Helper()
	raw, err := os.ReadFile(txPath(sig))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(doc["meta"], &meta); err != nil {
		t.Fatal(err)
	}
	meta["err"] = json.RawMessage(`{"InstructionError":[0,{"Custom":1}]}`)
	meta["status"] = json.RawMessage(`{"Err":{"InstructionError":[0,{"Custom":1}]}}`)
	doc["meta"], _ = json.Marshal(meta)
	out, _ := json.Marshal(doc)
	return out
}

// tableCounts renders how many rows of each table a batch holds.
func tableCounts(rows []decode.Batch) string {
	n := map[string]int{}
	for _, b := range rows {
		for _, r := range b.Rows() {
			n[r.Table()]++
		}
	}
	var parts []string
	for _, table := range slices.Sorted(maps.Keys(n)) {
		parts = append(parts, fmt.Sprintf("%s=%d", table, n[table]))
	}
	return strings.Join(parts, " ")
}

func TestDecoderRows(t *testing.T) {
	known := defaultTrees(t)
	none := light.NewTreeMap(nil)
	failed, err := solana.ParseTx(failedCopy(t, sigT1))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		tx      *solana.Tx
		trees   light.TreeLookup
		want    string
		dropped uint64
	}{
		{"mint", loadTx(t, sigMint), known,
			"compressed_accounts=1 compression_signatures=1 owner_txs=1 state_tree_nodes=1 token_owner_txs=1", 0},
		{"transfer", loadTx(t, sigT1), known,
			"compressed_accounts=2 compressed_spent=1 compression_signatures=1 owner_txs=1 state_tree_nodes=2 token_owner_txs=2", 0},
		{"transfer to self and other", loadTx(t, sigT3), known,
			"compressed_accounts=2 compressed_spent=1 compression_signatures=1 owner_txs=1 state_tree_nodes=2 token_owner_txs=2", 0},
		{"unknown tree: outputs dropped, spend and signature kept", loadTx(t, sigT1), none,
			"compressed_spent=1 compression_signatures=1", 2},
		{"failed transaction", failed, known, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := newDecoder(c.trees)
			if err != nil {
				t.Fatal(err)
			}
			var b decode.Batch
			if err := d.DecodeTx(c.tx, &b); err != nil {
				t.Fatal(err)
			}
			if got := tableCounts([]decode.Batch{b}); got != c.want {
				t.Errorf("rows %q, want %q", got, c.want)
			}
			if got := d.Counts()["compressed outputs in unknown trees dropped"]; got != c.dropped {
				t.Errorf("dropped %d, want %d", got, c.dropped)
			}
		})
	}
}

func TestDecoderAccountRow(t *testing.T) {
	d, _ := newDecoder(defaultTrees(t))
	var b decode.Batch
	if err := d.DecodeTx(loadTx(t, sigT3), &b); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range b.Rows() {
		row, ok := r.(*accountRow)
		if !ok || row.Hash.String() != "JReC6h68m3EdCKP7S35e7BE4pBPwQz1HfjUkboeQy9r" {
			continue
		}
		found = true
		o := (*light.OutputAccount)(row)
		if row.Table() != schema.TableCompressed || o.Tree.String() != "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT" ||
			o.Queue.String() != "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148" || o.Seq == nil || o.SlotCreated != 43 ||
			o.Owner.String() != cToken || o.Data == nil {
			t.Errorf("account %+v", o)
		}
		if tk := o.Token; tk == nil || tk.Owner.String() != bob || tk.Mint.String() != mint || tk.Amount != 5 || tk.Delegate != nil {
			t.Errorf("token %+v", tk)
		}
	}
	if !found {
		t.Fatal("Bob's 5-token output not decoded")
	}
}

// TestSignatureRowsOncePerOwner checks that a transaction writes one
// signature row per distinct owner and per distinct token owner,
// including past the few owners the decoder keeps on the stack.
func TestSignatureRowsOncePerOwner(t *testing.T) {
	pk := func(b byte) solana.Pubkey { return solana.Pubkey{b} }
	tests := []struct {
		name                    string
		owners, tokenOwners     []byte // one output each; tokenOwners[i] 0: not a token account
		wantOwners, wantHolders []byte
	}{
		{"repeated", []byte{1, 1, 2, 1}, []byte{7, 8, 7, 0}, []byte{1, 2}, []byte{7, 8}},
		{"one output", []byte{3}, []byte{0}, []byte{3}, nil},
		{"more than eight owners", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 10}, []byte{11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 11},
			[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []byte{11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := light.Events{Slot: 5, Compression: true}
			for i, o := range tc.owners {
				out := light.OutputAccount{Owner: pk(o), Hash: [32]byte{byte(i), 99}}
				if tc.tokenOwners[i] != 0 {
					out.Token = &light.TokenData{Owner: pk(tc.tokenOwners[i])}
				}
				ev.Outputs = append(ev.Outputs, out)
			}
			var batch decode.Batch
			NewDecoderWithTrees(light.NewTreeMap(nil)).DecodeEvents(&ev, 0, &batch)
			var owners, holders []byte
			for _, r := range batch.Rows() {
				switch r := r.(type) {
				case *ownerSignatureRow:
					owners = append(owners, r.Owner[0])
				case *tokenOwnerSignatureRow:
					holders = append(holders, r.Owner[0])
				}
			}
			if !slices.Equal(owners, tc.wantOwners) || !slices.Equal(holders, tc.wantHolders) {
				t.Errorf("owner rows %v, token owner rows %v; want %v, %v", owners, holders, tc.wantOwners, tc.wantHolders)
			}
		})
	}
}
