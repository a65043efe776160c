package conformance

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
)

// The corpora again on a cluster of two servers, one shard each
// (storetest.OpenCluster, cluster=two): every fixture is ingested through
// the Distributed tables and every answer read through them, held to what
// the single server is held to. One order of each, as the server runs.

// TestPhotonCorpusCluster is TestPhotonCorpusServer on the cluster.
func TestPhotonCorpusCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	deviations := deviationsOf(t, "../docs/compat.md")
	var out bytes.Buffer
	sum, err := Run(context.Background(), Options{
		Dir:        "../testdata/photon",
		Store:      storetest.OpenCluster(t),
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

// TestDASCorpusCluster is TestDASCorpusServer on the cluster.
func TestDASCorpusCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	deviations := deviationsOf(t, "../docs/das-compat.md")
	var out bytes.Buffer
	sum, err := RunDAS(context.Background(), DASOptions{
		Dir:        "../testdata/das",
		Store:      storetest.OpenCluster(t),
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
