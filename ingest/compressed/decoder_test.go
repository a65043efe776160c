package compressed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/config"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/light"
	"github.com/dasch-labs/dasch/ingest/solana"
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
			"compressed_accounts=1 compression_signatures=1 owner_signatures=1 state_tree_nodes=1 token_owner_signatures=1", 0},
		{"transfer", loadTx(t, sigT1), known,
			"compressed_accounts=2 compressed_spent=1 compression_signatures=1 owner_signatures=1 state_tree_nodes=2 token_owner_signatures=2", 0},
		{"transfer to self and other", loadTx(t, sigT3), known,
			"compressed_accounts=2 compressed_spent=1 compression_signatures=1 owner_signatures=1 state_tree_nodes=2 token_owner_signatures=2", 0},
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
