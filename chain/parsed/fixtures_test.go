package parsed

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const root = "../../testdata"

// fixtureTxs reads every real transaction of the repository fixtures: the
// demo block, the DAS and Photon corpora and the swaps, by signature.
func fixtureTxs(t testing.TB) map[string]*solana.Tx {
	t.Helper()
	out := map[string]*solana.Tx{}
	// The demo block, and a Photon block with lookup tables and Token-2022
	// transfers (under chain/testdata; blocks are named by slot).
	for _, b := range []struct {
		path string
		slot uint64
	}{{filepath.Join(root, "demo/blocks/270893658.json"), 270893658},
		{"../testdata/photon/blocks/index_compress_and_close_with_tlv/443787702.json", 443787702}} {
		raw, err := os.ReadFile(b.path)
		if err != nil {
			t.Fatal(err)
		}
		_, entries, err := solana.ParseBlock(raw, b.slot)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range entries {
			tx, err := solana.ParseTx(e)
			if err != nil {
				t.Fatalf("%s entry %d: %v", b.path, i, err)
			}
			tx.TxIndex = uint32(i)
			out[tx.Signature().String()] = tx
		}
	}
	// Swaps through the programs the swap recogniser knows (sources in
	// testdata/NOTICE).
	dirs := []string{"testdata/swaps"}
	for _, dir := range []string{"das/transactions", "photon/transactions", "demo/e2e_mint_and_transfer_transactions"} {
		dirs = append(dirs, filepath.Join(root, dir))
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			tx, err := solana.ParseTx(b)
			if err != nil {
				// The corpora hold a few files that are not
				// transactions; the ingester sends those to dead
				// letters, and so does this test.
				return nil
			}
			out[tx.Signature().String()] = tx
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
