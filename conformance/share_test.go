package conformance

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// countingIndexer counts the pipeline runs of an IngestIndexer.
type countingIndexer struct {
	IngestIndexer
	runs int
}

func (c *countingIndexer) Index(ctx context.Context, s arrowstore.Store, files []string, force *uint64) error {
	c.runs++
	return c.IngestIndexer.Index(ctx, s, files, force)
}

// TestSharedVariants runs three cases over the same fixtures and index
// orders, one of them expecting a wrong answer: the fixtures are indexed
// once for all three, and the wrong one still fails, named by the first
// variant that answered differently, in its place among the two that pass.
func TestSharedVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes fixtures")
	}
	src, err := filepath.Abs("../testdata/photon")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "transactions"), filepath.Join(dir, "transactions")); err != nil {
		t.Fatal(err)
	}
	copyFile := func(from, to string, edit func(string) string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, []byte(edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same := func(s string) string { return s }
	copyFile(filepath.Join(src, "trees.json"), filepath.Join(dir, "trees.json"), same)
	for _, name := range []string{"derived-balances-v2-bob-limit1-page1", "derived-balances-v2-bob-limit1-page2"} {
		copyFile(filepath.Join(src, "cases", name+".json"), filepath.Join(dir, "cases", name+".json"), same)
	}
	// Page 1 expecting Bob's balance 106 instead of 105; its file sorts
	// first ('-' before '.').
	copyFile(filepath.Join(src, "cases", "derived-balances-v2-bob-limit1-page1.json"),
		filepath.Join(dir, "cases", "derived-balances-v2-bob-limit1-page1-wrong.json"), func(s string) string {
			s = strings.Replace(s, `"name": "derived-balances-v2-bob-limit1-page1"`, `"name": "derived-balances-v2-bob-limit1-page1-wrong"`, 1)
			return strings.Replace(s, `"balance": 105`, `"balance": 106`, 1)
		})

	ix := &countingIndexer{}
	var out bytes.Buffer
	sum, err := Run(context.Background(), Options{Dir: dir, Store: storetest.Open(t), Indexer: ix, Out: &out, SplitRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"FAIL derived-balances-v2-bob-limit1-page1-wrong: index order 1 of 2, one run: value.items[0].balance: got 105, want 106",
		"PASS derived-balances-v2-bob-limit1-page1",
		"PASS derived-balances-v2-bob-limit1-page2",
		"2 passed, 1 failed, 0 skipped, 0 deviations",
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	if sum.Passed != 2 || sum.Failed != 1 {
		t.Errorf("summary %+v", sum)
	}
	// Two orders of 4 and 7 transactions, each in one run and one run per
	// transaction, indexed once for the three cases: 1+4+1+7.
	if ix.runs != 13 {
		t.Errorf("%d pipeline runs, want 13 (each variant indexed once)", ix.runs)
	}
}
