package conformance

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// The corpora again on the server engine (store/chserver) against a real
// ClickHouse server started from the embedded engine's library: both
// engines are held to the same answers, and to the same deviations.

func deviationsOf(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := ParseDeviations(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkRun holds a run to what the embedded runs are held to.
func checkRun(t *testing.T, sum Summary, out string, deviations map[string]string) {
	t.Helper()
	t.Logf("\n%s", out)
	if sum.Failed != 0 {
		t.Errorf("%d cases failed:\n%s", sum.Failed, failures(out))
	}
	if sum.Passed == 0 {
		t.Error("no case passed")
	}
	for name := range deviations {
		if !strings.Contains(out, "DEVIATION "+name+":") {
			t.Errorf("%s is listed as a deviation but did not run as one", name)
		}
	}
}

// photonCorpusOn replays the Photon corpus through s, as
// TestPhotonCorpus does, in one batching: every order indexed in one
// pipeline run (the split runs test the pipeline, not the engine).
func photonCorpusOn(t *testing.T, s arrowstore.Store) {
	t.Helper()
	deviations := deviationsOf(t, "../docs/compat.md")
	var out bytes.Buffer
	sum, err := Run(context.Background(), Options{
		Dir:        "../testdata/photon",
		Store:      s,
		Indexer:    IngestIndexer{},
		Deviations: deviations,
		Out:        &out,
		Logger:     slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, sum, out.String(), deviations)
}

// dasCorpusOn replays the DAS corpus through s as TestDASCorpus does, in
// the reference's order of each case's files only.
func dasCorpusOn(t *testing.T, s arrowstore.Store) {
	t.Helper()
	deviations := deviationsOf(t, "../docs/das-compat.md")
	var out bytes.Buffer
	sum, err := RunDAS(context.Background(), DASOptions{
		Dir:        "../testdata/das",
		Store:      s,
		Indexer:    AssetIndexer{},
		Deviations: deviations,
		Out:        &out,
		Logger:     slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		Cache:      true,
		FirstOrder: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, sum, out.String(), deviations)
	if sum.Passed < 45 || sum.Passed+sum.Deviations < 59 {
		t.Errorf("%d cases passed and %d deviated, want every getAsset/getAssets case (at least 45 and 59)", sum.Passed, sum.Deviations)
	}
}

func TestPhotonCorpusServer(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	photonCorpusOn(t, storetest.OpenServer(t))
}

func TestDASCorpusServer(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	dasCorpusOn(t, storetest.OpenServer(t))
}
