package parsed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-json"
)

// TestGolden parses every fixture transaction and compares the answer
// with its golden file (go test -update rewrites them).
func TestGolden(t *testing.T) {
	txs := fixtureTxs(t)
	if len(txs) < 100 {
		t.Fatalf("%d fixture transactions, want the demo block and the corpora", len(txs))
	}
	for _, sig := range sortedKeys(txs) {
		got, err := json.MarshalIndent(Parse(txs[sig]), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "golden", sig+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (go test -update writes it)", sig, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: parsed answer differs from %s", sig, path)
		}
	}
}
