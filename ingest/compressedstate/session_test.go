package compressedstate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// runSet is index without the test's Fatal, for a goroutine; opts
// apply to the state step.
func runSet(ctx context.Context, s arrowstore.Writer, files []string, opts ...func(*StateStep)) error {
	cfg := ingest.Config{Store: s, Source: source.NewFileList(files)}
	if err := Configure(ctx, s, &cfg, opts...); err != nil {
		return err
	}
	_, err := ingest.Run(ctx, cfg)
	return err
}

// bySlot lists the transactions of dir in slot order.
func bySlot(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %v (%d files)", dir, err, len(files))
	}
	slot := map[string]uint64{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tx struct{ Slot uint64 }
		if err := json.Unmarshal(b, &tx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		slot[f] = tx.Slot
	}
	sort.Slice(files, func(i, j int) bool { return slot[files[i]] < slot[files[j]] })
	return files
}

// sessionTables counts the staging tables of ingest sessions in the store.
func sessionTables(t *testing.T, s arrowstore.Writer) string {
	t.Helper()
	var n int
	for _, r := range query(t, s, `SELECT name FROM system.tables WHERE database = currentDatabase()`, nil) {
		if schema.IsSessionTable(r[0].(string)) {
			n++
		}
	}
	return fmt.Sprint(n)
}

// TestSessionsApart runs two ingest sessions at once on one store, over
// sets of their own, and wants what the two leave one after the other:
// each session steps through staging tables of its own, so neither
// empties nor reads the other's. Several rounds, for the interleavings;
// on the embedded store and on a two-shard cluster, where the staging
// tables live on the node the sessions talk to.
func TestSessionsApart(t *testing.T) {
	for _, c := range []struct {
		name string
		open func(testing.TB) arrowstore.Store
	}{{"embedded", storetest.Open}, {"cluster", storetest.OpenCluster}} {
		t.Run(c.name, func(t *testing.T) { sessionsApart(t, c.open) })
	}
}

func sessionsApart(t *testing.T, open func(testing.TB) arrowstore.Store) {
	// Slots 40..43 and 79..302: the sessions step ranges of their own.
	sets := [][]string{paths(listed...), bySlot(t, "../../testdata/photon/transactions/nullfiier_and_address_queue_transactions")}
	ctx := context.Background()
	s := open(t)
	// Steps applied by other tests without a run keep theirs.
	before := sessionTables(t, s)
	for _, files := range sets {
		if err := runSet(ctx, s, files); err != nil {
			t.Fatal(err)
		}
	}
	want := snapshot(t, s)
	if want["token_balances"] == "" || want["compressed_accounts"] == "" {
		t.Fatal("the sets left no balances or accounts: the test checks nothing")
	}
	if n := sessionTables(t, s); n != before {
		t.Errorf("%s session tables after the runs, %s before", n, before)
	}
	for round := range 3 {
		s := open(t)
		// Each session, once it has listed its first events, waits for
		// the other to list its own: on shared staging tables the second
		// list empties the first.
		var meet sync.WaitGroup
		meet.Add(len(sets))
		met := make(chan struct{})
		go func() { meet.Wait(); close(met) }()
		var wg sync.WaitGroup
		errs := make([]error, len(sets))
		for i, files := range sets {
			var once sync.Once
			rendezvous := func(st *StateStep) {
				st.Observe(func(what string, _ time.Duration) {
					if what != "output events" {
						return
					}
					once.Do(func() {
						meet.Done()
						select {
						case <-met:
						case <-time.After(5 * time.Second):
						}
					})
				})
			}
			wg.Go(func() { errs[i] = runSet(ctx, s, files, rendezvous) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		sameAnswers(t, fmt.Sprintf("round %d", round), want, snapshot(t, s))
		if n := sessionTables(t, s); n != before {
			t.Errorf("round %d: %s session tables after the runs, %s before", round, n, before)
		}
	}
}

// TestSessionSQL renames the staging tables a statement names, and only
// them.
func TestSessionSQL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{sqlClearSpent, "TRUNCATE TABLE compressed_step_spent_sX"},
		{sqlClearSpentAccounts, "TRUNCATE TABLE compressed_step_spent_accounts_sX"},
		{sqlSpentCount, "SELECT count() FROM compressed_step_spent_sX"},
		{sqlNewestFinished, sqlNewestFinished},
		{"compressed_step_stored", "compressed_step_stored_sX"},
		{"SELECT 1 FROM compressed_step_deltas AS d JOIN compressed_step_changes", "SELECT 1 FROM compressed_step_deltas_sX AS d JOIN compressed_step_changes_sX"},
		{"compressed_step_events_old", "compressed_step_events_old"},
	} {
		if got := schema.SessionSQL(c.in, "sX"); got != c.want {
			t.Errorf("SessionSQL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
