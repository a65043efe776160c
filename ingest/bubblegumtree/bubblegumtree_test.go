package bubblegumtree_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/chain/cmt"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/bubblegumtree"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const corpus = "../../../shared/corpus/das/transactions/"

// Fixture transactions: a mint into a tree created in the same
// transaction, then a transfer and a burn of it.
var (
	txMint     = corpus + "mint_transfer_burn/5coWPFty37s7haT3SVyMf6PkTaABEnhCRhfDjXeMNS58czHB5dCFPY6VrsZNwxBnqypmNic1LbLp1j5qjbdnZAc8.json"
	txTransfer = corpus + "mint_transfer_burn/k6jmJcurgBQ6F2bVa86Z1vGb7ievzxwRZ8GAqzFEG8HicDizxceYPUm1KTzWZ3QKtGgy1EuFWUGCRqBeKU9SAoJ.json"
	txBurn     = corpus + "mint_transfer_burn/KHNhLijkAMeKeKm6kpbk3go6q9uMF3zmfCoYSBgERe8qJDW8q5ANpnkyBuyVkychXCeWzRY8i5EtKfeGaDDU23w.json"
)

func loadTx(t *testing.T, path string) *solana.Tx {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := solana.ParseTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// TestDecodeTx checks the rows of fixture transactions: one per node of
// each change log, leaf (level 0) to root (node 1, level 14), at the
// change log's seq and the transaction's slot.
func TestDecodeTx(t *testing.T) {
	failed := loadTx(t, txMint)
	failed.Err = []byte(`{"InstructionError":[0,"Custom"]}`)
	tests := []struct {
		name string
		tx   *solana.Tx
		seqs []uint64 // one change log per seq
	}{
		{"create tree and mint", loadTx(t, txMint), []uint64{0, 1}},
		{"transfer", loadTx(t, txTransfer), []uint64{2}},
		{"burn", loadTx(t, txBurn), []uint64{3}},
		{"failed", failed, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out decode.Batch
			if err := (bubblegumtree.Decoder{}).DecodeTx(tc.tx, &out); err != nil {
				t.Fatal(err)
			}
			rows := out.Rows()
			if len(rows) != 15*len(tc.seqs) {
				t.Fatalf("%d rows, want %d", len(rows), 15*len(tc.seqs))
			}
			for i, r := range rows {
				n := r.(*bubblegumtree.NodeRow)
				lvl := i % 15
				if n.Seq != tc.seqs[i/15] || int(n.Level) != lvl || n.Slot != tc.tx.Slot ||
					cmt.Level(14, uint64(n.NodeIndex)) != lvl || n.Tree.String() != "CnBt2TJrw1dXUBfVBf2Ah4Cz5s84jhBG7cejdPF19Eyh" {
					t.Fatalf("row %d: %+v", i, n)
				}
			}
		})
	}
}

// currentNodes reads every tree node with its newest hash and seq.
func currentNodes(t *testing.T, s store.Querier) map[string]string {
	t.Helper()
	res, err := s.Query(context.Background(), `SELECT tree, node_index, level, argMax(hash, seq), max(seq)
		FROM bubblegum_nodes GROUP BY tree, node_index, level HAVING max(seq) > 0`, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range res.Rows {
		out[r[0].(string)+"/"+strconv.FormatUint(uint64(r[1].(uint32)), 10)] =
			strconv.Itoa(int(r[2].(uint8))) + "/" + r[3].(string) + "/" + strconv.FormatUint(r[4].(uint64), 10)
	}
	return out
}

// TestBackfill upgrades a store indexed before migration 28: the nodes it
// derives from the stored Bubblegum events are the ones ingest writes.
func TestBackfill(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for _, f := range []string{txBurn, txMint, txTransfer} {
		cfg := ingest.Config{Store: s, Source: source.NewFileList([]string{filepath.Clean(f)})}
		if err := decoders.Configure(ctx, s, &cfg, decoders.Options{AssetsOnly: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Run(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	want := currentNodes(t, s)
	if len(want) != 15 {
		t.Fatalf("%d nodes written by ingest, want the 15 of one path", len(want))
	}
	for _, stmt := range []string{
		`DROP TABLE ` + schema.TableBubblegumNodes,
		`ALTER TABLE schema_migrations DELETE WHERE version = 28 SETTINGS mutations_sync = 2`,
	} {
		if err := s.Exec(ctx, stmt, nil); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := schema.Migrate(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got := currentNodes(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("backfilled %v\nwant %v", got, want)
	}
}
