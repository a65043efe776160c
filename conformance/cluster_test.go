package conformance

import (
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
	photonCorpusOn(t, storetest.OpenCluster(t))
}

// TestDASCorpusCluster is TestDASCorpusServer on the cluster.
func TestDASCorpusCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes every case's fixtures")
	}
	dasCorpusOn(t, storetest.OpenCluster(t))
}
