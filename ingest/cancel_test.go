package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// liveSource emits its items, then waits for more like a chain follower
// would, until ctx ends.
type liveSource struct{ items []source.Item }

func (s *liveSource) Spec() string { return "live:test" }

func (s *liveSource) Read(ctx context.Context, emit func(source.Item) error) error {
	for i, it := range s.items {
		it.Seq = uint64(i)
		if err := emit(it); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return ctx.Err()
}

func photonItems(t *testing.T) []source.Item {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtures, photonTxs, "*.json"))
	if err != nil || len(files) != 4 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	// Slots 40..43 in file order: 64jF(40) 5UZu(41) 2J9p(42) 5oTN(43).
	order := []string{"64jF", "5UZu", "2J9p", "5oTN"}
	var items []source.Item
	for i, prefix := range order {
		for _, f := range files {
			if strings.HasPrefix(filepath.Base(f), prefix) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				items = append(items, source.Item{Kind: source.KindTx, Slot: uint64(40 + i), Key: f, Raw: b})
			}
		}
	}
	return items
}

// A live source that seals its last slot gets it checkpointed while it
// waits for more.
func TestSealCompletesLiveSlot(t *testing.T) {
	s := storetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	items := append(photonItems(t), source.Item{Kind: source.KindSeal, Slot: 43})
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Store: s, Source: &liveSource{items: items}, BatchAge: 20 * time.Millisecond})
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for indexedSlot(t, s) < 43 {
		if time.Now().After(deadline) {
			t.Fatalf("checkpoint %d: the sealed slot 43 never completed", indexedSlot(t, s))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
}

// A follower at the head of the chain sends a sealed slot at once: with
// batch and part ages of an hour, only the seal flush can commit it.
func TestSealedSlotSentAtOnce(t *testing.T) {
	s := storetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	items := append(photonItems(t), source.Item{Kind: source.KindSeal, Slot: 43})
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Store: s, Source: &liveSource{items: items}, BatchAge: time.Hour, PartAge: time.Hour})
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for indexedSlot(t, s) < 43 {
		if time.Now().After(deadline) {
			t.Fatalf("checkpoint %d: the sealed slot 43 was not sent", indexedSlot(t, s))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := one(t, s, `SELECT count() FROM transactions FINAL`, nil)[0]; n != uint64(4) {
		t.Errorf("%v transactions, want 4", n)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
}

func TestCancelKeepsCheckpointConsistent(t *testing.T) {
	s := storetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		st  Stats
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		st, err := Run(ctx, Config{Store: s, Source: &liveSource{items: photonItems(t)}, BatchAge: 20 * time.Millisecond})
		done <- outcome{st, err}
	}()
	// Slot 43 is the last one seen and may still grow, so 42 is as far as
	// the checkpoint can go while the source is live.
	deadline := time.Now().Add(10 * time.Second)
	for indexedSlot(t, s) < 42 {
		if time.Now().After(deadline) {
			t.Fatal("checkpoint never reached 42")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	o := <-done
	if !errors.Is(o.err, context.Canceled) {
		t.Fatalf("run: %v", o.err)
	}
	if got := indexedSlot(t, s); got != 42 || o.st.Slot != 42 {
		t.Errorf("indexed slot %d (stats %d), want 42", got, o.st.Slot)
	}
	// Everything the checkpoint covers is there.
	if n := one(t, s, `SELECT count() FROM transactions FINAL WHERE slot <= 42`, nil)[0]; n != uint64(3) {
		t.Errorf("%v transactions up to the checkpoint, want 3", n)
	}
}

// failingStore fails the commits of parts of one table.
type failingStore struct {
	arrowstore.Store
	table string
}

func (f failingStore) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	w, err := f.Store.OpenPart(ctx, table, sc)
	if err != nil || table != f.table {
		return w, err
	}
	return failingPart{w}, nil
}

type failingPart struct{ arrowstore.PartWriter }

func (p failingPart) Commit() error {
	_ = p.PartWriter.Abort()
	return errors.New("disk full")
}

func TestInsertFailureHoldsCheckpoint(t *testing.T) {
	s := storetest.Open(t)
	src, err := ParseSource("files:" + inputDir(t, []string{photonTxs, dasAccounts}, nil))
	if err != nil {
		t.Fatal(err)
	}
	// The account at slot 1 never commits, so no slot is complete.
	var out strings.Builder
	_, err = Run(context.Background(), Config{Store: failingStore{s, "accounts"}, Source: src, Progress: &out})
	if err == nil || !strings.Contains(err.Error(), "into accounts: disk full") {
		t.Fatalf("run: %v", err)
	}
	// No line of figures that reads as success before the error.
	if strings.Contains(out.String(), "ingested") {
		t.Errorf("a failed run printed a summary: %q", out.String())
	}
	if got := indexedSlot(t, s); got != 0 {
		t.Errorf("indexed slot %d after a failed insert at slot 1", got)
	}
}
