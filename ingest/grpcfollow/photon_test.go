package grpcfollow_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
	"github.com/dasch-labs/dasch/schema"
)

// rawTables hold what a source carries as it is: a stream carries only
// the programs the decoders read, files carry everything (sol_balances
// files every carried transaction's balances, the parsed-events tables
// every carried transaction).
var rawTables = []string{schema.TableTxs, schema.TableAccounts, schema.TableAccByOwner, schema.TableBlocks, schema.TableCheckpoints,
	schema.TableSolBalances, schema.TableParsedTxs, schema.TableAddressTxs}

// The Photon corpus's transactions (every set, and its whole blocks)
// leave the same compressed state after a Geyser stream as after files:
// accounts, spends, token accounts, balances, signatures, trees.
func TestPhotonMatchesFiles(t *testing.T) {
	e := newEnv(t)
	trees, err := os.ReadFile(filepath.Join(corpus, "photon", "trees.json"))
	if err != nil {
		t.Fatal(err)
	}
	e.trees = trees
	sets, err := filepath.Glob(filepath.Join(corpus, "photon", "transactions", "*"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no Photon sets: %v", err)
	}
	blocks, _ := filepath.Glob(filepath.Join(corpus, "photon", "blocks", "*"))
	compressed := 0
	for _, dir := range append(sets, blocks...) {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			e.t = t
			files, err := filepath.Glob(filepath.Join(dir, "*.json"))
			if err != nil || len(files) == 0 {
				t.Skip("no files")
			}
			slots, err := geysertest.Slots(files)
			if err != nil {
				t.Fatal(err)
			}
			e.reset()
			fs := e.files(files, false)
			want := e.tables(rawTables...)

			e.reset()
			srv := geysertest.Start(t, geysertest.Script{Slots: slots})
			gs := e.stream(srv, false, source.GRPCOptions{From: new(uint64(0)), To: slots[len(slots)-1].Slot})
			got := e.tables(rawTables...)
			sameTables(t, filepath.Base(dir), got, want)
			if gs.DeadLetters != fs.DeadLetters {
				t.Errorf("dead letters: stream %d, files %d", gs.DeadLetters, fs.DeadLetters)
			}
			if want[schema.TableCompressed] != "" {
				compressed++
			}
		})
	}
	if compressed < 10 {
		t.Errorf("%d sets left compressed accounts, want most of the corpus's", compressed)
	}
}
