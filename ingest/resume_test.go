package ingest

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// laterFailingStore fails the commits of one table after the first ok.
type laterFailingStore struct {
	arrowstore.Store
	table string
	ok    int64
	n     *atomic.Int64
}

func (f laterFailingStore) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	w, err := f.Store.OpenPart(ctx, table, sc)
	if err != nil || table != f.table || f.n.Add(1) <= f.ok {
		return w, err
	}
	return failingPart{w}, nil
}

// A files run that fails part way leaves its own checkpoint; a run with
// the committed files left out ends where one uninterrupted run ends.
func TestFilesResume(t *testing.T) {
	dir := inputDir(t, fixtureSet, nil)
	ref := storetest.Open(t)
	whole := ingest(t, ref, dir, Config{})
	want := snapshot(t, ref)

	s := storetest.Open(t)
	src, err := source.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	// One transaction a part: the failure comes at the 40th.
	cut := laterFailingStore{Store: s, table: "transactions", ok: 40, n: new(atomic.Int64)}
	one := Config{Store: cut, Source: src, Run: src.Run(), BatchRows: 1, PartRows: 1, Workers: 1}
	if _, err := Run(context.Background(), one); err == nil {
		t.Fatal("the cut run did not fail")
	}
	through, ok, err := checkpoint.RunSlot(context.Background(), s, src.Run())
	if err != nil || !ok {
		t.Fatalf("no checkpoint of the cut run: %v", err)
	}
	if through == 0 || through >= whole.Slot {
		t.Fatalf("cut run committed through slot %d of %d: the test cuts nothing", through, whole.Slot)
	}
	if main := indexedSlot(t, s); main != through {
		t.Errorf("main checkpoint %d, run checkpoint %d", main, through)
	}

	t.Logf("cut run committed through slot %d of %d", through, whole.Slot)
	src.SkipThrough(through)
	rest, err := Run(context.Background(), Config{Store: s, Source: src, Run: src.Run()})
	if err != nil {
		t.Fatal(err)
	}
	if rest.Items == 0 || rest.Items >= whole.Items {
		t.Errorf("resumed run read %d items of %d", rest.Items, whole.Items)
	}
	got := snapshot(t, s)
	for name := range answers() {
		if name == "indexer_checkpoints" {
			continue // the runs own checkpoints are rows of it too
		}
		if got[name] != want[name] {
			t.Errorf("%s: %s after the resumed run, %s after one run", name, got[name], want[name])
		}
	}
	if a, b := indexedSlot(t, s), indexedSlot(t, ref); a != b {
		t.Errorf("indexed slot %d, want %d", a, b)
	}
	if end, _, _ := checkpoint.RunSlot(context.Background(), s, src.Run()); end != whole.Slot {
		t.Errorf("run checkpoint %d at the end, want %d", end, whole.Slot)
	}
}
