package ingest

import (
	"fmt"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
)

// TestRewriteLog: a run whose slots are at or below the checkpoint it
// began from logs them as rewritten (the checkpoint does not move back for
// them); a first run and a run past the checkpoint log nothing.
func TestRewriteLog(t *testing.T) {
	s := storetest.Open(t)
	dir := inputDir(t, []string{photonTxs}, nil)
	log := func() string {
		return fmt.Sprint(query(t, s, `SELECT from_slot, to_slot FROM indexer_rewrites ORDER BY at`, nil))
	}
	for _, c := range []struct {
		name string
		slot uint64
		want string
	}{
		{"first run", 100, "[]"},
		{"backfill", 50, "[[50 50]]"},
		{"forward", 200, "[[50 50]]"},
		{"at the checkpoint", 200, "[[50 50] [200 200]]"},
	} {
		slot := c.slot
		ingest(t, s, dir, Config{ForceSlot: &slot})
		if got := log(); got != c.want {
			t.Errorf("%s (slot %d): rewrite log %s, want %s", c.name, c.slot, got, c.want)
		}
	}
	if got := indexedSlot(t, s); got != 200 {
		t.Errorf("indexed slot %d, want 200", got)
	}
}
