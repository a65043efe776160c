package rpcingest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// cutSource passes src's items on and calls cancel at the cut: when it
// has passed after items (0: never), or reaches an item of slot at or
// past atSlot (0: never). It calls sealed once the listing's slot is
// sealed, and counts the listing's items.
type cutSource struct {
	src      source.Source
	after, n int
	atSlot   uint64
	cancel   func()
	listAt   uint64
	listed   int
	sealed   func()
}

func (c *cutSource) Spec() string { return c.src.Spec() }

func (c *cutSource) Read(ctx context.Context, emit func(source.Item) error) error {
	return c.src.Read(ctx, func(it source.Item) error {
		c.n++
		if c.after > 0 && c.n == c.after || c.atSlot > 0 && it.Slot >= c.atSlot {
			c.cancel()
		}
		if it.Slot == c.listAt && it.Kind == source.KindAccount {
			c.listed++
		}
		if err := emit(it); err != nil {
			return err
		}
		if it.Kind == source.KindSeal && it.Slot == c.listAt {
			c.sealed()
		}
		return nil
	})
}

// cut is where a run is cut: after items, or at slot (see cutSource).
type cut struct {
	items int
	slot  uint64
}

// follow runs one ingest from n into s as dasch ingest --bootstrap does:
// the listing at listAt on a store with nothing indexed (the node's
// newest slot until it is sealed), else the blocks after the indexed
// slot, up to last. It returns how many accounts the listing passed and
// whether the run was cut.
func follow(t *testing.T, s arrowstore.Store, n *rpcnode.Node, listAt, last uint64, at cut) (listed int, wasCut bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := source.RPCOptions{To: last}
	indexed, err := checkpoint.ContextSlot(ctx, s)
	switch {
	case errors.Is(err, checkpoint.ErrNotIndexed):
		o.Bootstrap = true
		n.SetTip(listAt)
	case err != nil:
		t.Fatal(err)
	case indexed >= last:
		return 0, false
	default:
		o.From = indexed + 1
	}
	cfg := config(t, s, nil)
	c := &cutSource{src: rpcSource(t, n, &cfg, o), after: at.items, atSlot: at.slot, cancel: cancel, listAt: listAt,
		sealed: func() { n.SetTip(last) }}
	cfg.Source = c
	_, err = ingest.Run(ctx, cfg)
	switch {
	case err == nil:
		return c.listed, false
	case errors.Is(err, context.Canceled):
		return c.listed, true
	}
	t.Fatalf("run cut at %+v: %v", at, err)
	return 0, false
}

// Cut ten times at random points, three in the listing and seven in the
// blocks after it, and started again from the indexed slot each time, a
// follower ends with the answers and the table contents of one run that
// was never cut.
func TestFollowRestarts(t *testing.T) {
	_, files, first, last, _ := corpus(t)
	listAt := (first + last) / 2
	s := storetest.Open(t)
	listed, _ := follow(t, s, corpusNode(t, files), listAt, last, cut{})
	if listed < 50 {
		t.Fatalf("the uncut run listed %d accounts", listed)
	}
	wantTables, wantAnswers := tables(t, s), answers(t, s)

	s = storetest.Open(t)
	n := corpusNode(t, files)
	rng := rand.New(rand.NewPCG(45, 6))
	var cuts []cut
	for range 3 {
		cuts = append(cuts, cut{items: 1 + rng.IntN(listed)})
	}
	var slots []uint64
	for range 7 {
		slots = append(slots, listAt+1+rng.Uint64N(last-listAt))
	}
	slices.Sort(slots)
	for _, sl := range slots {
		cuts = append(cuts, cut{slot: sl})
	}
	for i, c := range cuts {
		if _, wasCut := follow(t, s, n, listAt, last, c); !wasCut {
			t.Fatalf("cut %d at %+v: the run was not cut", i, c)
		}
	}
	if _, wasCut := follow(t, s, n, listAt, last, cut{}); wasCut {
		t.Fatal("the last run was cut")
	}
	// Cut in the listing, the store had nothing indexed: each next run
	// listed again (every read at least once more).
	cfg := config(t, s, nil)
	if reads, calls := len(decoders.AccountReads(&cfg)), n.Calls("getProgramAccountsV2"); calls < 2*reads {
		t.Errorf("%d listing calls for %d reads: the cut listings were not done again", calls, reads)
	}
	if got := tables(t, s); !slices.Equal(got, wantTables) {
		for _, l := range got {
			if !slices.Contains(wantTables, l) {
				t.Errorf("after the cuts, a row the uncut run lacks: %.300s", l)
			}
		}
		for _, l := range wantTables {
			if !slices.Contains(got, l) {
				t.Errorf("after the cuts, a row of the uncut run missing: %.300s", l)
			}
		}
		t.FailNow()
	}
	sameAnswers(t, "after the cuts", answers(t, s), wantAnswers)
}
