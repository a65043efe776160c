package conformance

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// TestPhotonCorpus replays the shipped corpus: every case must pass, be
// skipped (method not served yet) or be a documented deviation, through
// the store and through the in-memory indexes.
func TestPhotonCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	f, err := os.Open("../docs/compat.md")
	if err != nil {
		t.Fatal(err)
	}
	deviations, err := ParseDeviations(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The store path in every batching, then the in-memory indexes dasch
	// serve answers holders, balances and token accounts from.
	for _, mode := range []struct {
		name       string
		split, hot bool
	}{{"store", true, false}, {"in-memory indexes", false, true}} {
		t.Run(mode.name, func(t *testing.T) {
			var out bytes.Buffer
			sum, err := Run(context.Background(), Options{
				Dir:        "../testdata/photon",
				Store:      storetest.Open(t),
				Indexer:    IngestIndexer{},
				Deviations: deviations,
				Out:        &out,
				SplitRuns:  mode.split,
				Hot:        mode.hot,
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", out.String())
			if sum.Failed != 0 {
				t.Errorf("%d cases failed:\n%s", sum.Failed, failures(out.String()))
			}
			if sum.Passed == 0 {
				t.Error("no case passed")
			}
			last := strings.TrimSpace(out.String())
			if i := strings.LastIndexByte(last, '\n'); i >= 0 {
				last = last[i+1:]
			}
			if last != sum.String() {
				t.Errorf("last line %q, want the summary %q", last, sum.String())
			}
			// Every listed deviation is a case of the corpus, so none goes
			// stale unnoticed.
			for name := range deviations {
				if !strings.Contains(out.String(), "DEVIATION "+name+":") {
					t.Errorf("compat.md lists %s, which did not run as a deviation", name)
				}
			}
		})
	}
}

func failures(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestDASCorpus replays the shipped DAS corpus: every getAsset and
// getAssets case must pass (in every permutation where order must not
// matter) or be a documented deviation; cases of later methods are skipped.
func TestDASCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures, in every permutation")
	}
	f, err := os.Open("../docs/das-compat.md")
	if err != nil {
		t.Fatal(err)
	}
	deviations, err := ParseDeviations(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := RunDAS(context.Background(), DASOptions{
		Dir:        "../testdata/das",
		Store:      storetest.Open(t),
		Indexer:    AssetIndexer{},
		Deviations: deviations,
		Out:        &out,
		Cache:      true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	if sum.Failed != 0 {
		t.Errorf("%d cases failed:\n%s", sum.Failed, failures(out.String()))
	}
	// Every getAsset and getAssets case runs: only later methods skip.
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "SKIP ") && (strings.Contains(line, "method getAsset ") || strings.Contains(line, "method getAssets ")) {
			t.Errorf("a getAsset case was skipped: %s", line)
		}
	}
	// The Bubblegum V2 cases answer with a field deviation (interface).
	if sum.Passed < 45 || sum.Passed+sum.Deviations < 59 {
		t.Errorf("%d cases passed and %d deviated, want every getAsset/getAssets case (at least 45 and 59)", sum.Passed, sum.Deviations)
	}
	for name := range deviations {
		if !strings.Contains(out.String(), "DEVIATION "+name+":") {
			t.Errorf("das-compat.md lists %s, which did not run as a deviation", name)
		}
	}
}
