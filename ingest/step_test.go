package ingest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// recordingStep records each range it is applied to, with the checkpoint
// as it stood then, and fails on ranges reaching failAt (when set).
type recordingStep struct {
	calls  []string
	failAt uint64
}

func (*recordingStep) Name() string { return "record" }

func (r *recordingStep) Apply(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	res, err := s.Query(ctx, `SELECT count(), max(slot) FROM indexer_checkpoints WHERE name = 'main'`, nil)
	if err != nil {
		return err
	}
	r.calls = append(r.calls, fmt.Sprintf("%d..%d@%v/%v", from, to, res.Rows[0][0], res.Rows[0][1]))
	if r.failAt != 0 && to >= r.failAt {
		return errors.New("cannot derive")
	}
	return nil
}

// photonFiles are the four photon transactions in the given slot order
// (40..43).
func photonFiles(slots ...int) []string {
	sigs := map[int]string{
		40: "64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4",
		41: "5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV",
		42: "2J9pSeLvXnyawUPKdks98ZibQWU8v38AEhmZp9g9P3WzY9dJSMQ3RmoUaGN1zVCF3tTQy6q2YbD94jq8uzSZsay7",
		43: "5oTNJvc5WWJacEdpZLimVjGu1uGkXoMth8dNKaAymVKA7arwhccxeJPRWDuYEvQHNkGnkRNJcwUbtV4KnwebCKj5",
	}
	out := make([]string, len(slots))
	for i, s := range slots {
		out[i] = filepath.Join(fixtures, filepath.FromSlash(photonTxs), sigs[s]+".json")
	}
	return out
}

func TestStepsRunBeforeCheckpoint(t *testing.T) {
	cases := []struct {
		name   string
		failAt uint64
		err    string
	}{
		{"every range, in order, before its checkpoint", 0, ""},
		// A range may cover several slots (see TestStepperCoalesces).
		{"a failing step holds the checkpoint", 42, "state step record over slots 4"},
		{"failing on the first range: no checkpoint", 40, "state step record over slots 40.."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := storetest.Open(t)
			step := &recordingStep{failAt: c.failAt}
			// One item per batch and one worker: the watermark moves one
			// slot at a time.
			st, err := Run(context.Background(), Config{
				Store: s, Source: source.NewFileList(photonFiles(40, 41, 42, 43)),
				Steps: []StateStep{step}, BatchRows: 1, Workers: 1,
			})
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "cannot derive")) {
				t.Fatalf("run: %v, want %q", err, c.err)
			}
			got := indexedSlot(t, s)
			if c.failAt == 0 && got != 43 || c.failAt != 0 && got >= c.failAt || st.Slot != got {
				t.Errorf("checkpoint %d (stats %d), failing at %d", got, st.Slot, c.failAt)
			}
			if next := checkRanges(t, step.calls, 40); c.err == "" && next != 44 {
				t.Errorf("calls %v do not reach 43", step.calls)
			}
		})
	}
}

// checkRanges checks recorded calls: ranges contiguous from first, each
// derived while the checkpoint was still below it. It returns the slot
// after the last range.
func checkRanges(t *testing.T, calls []string, first uint64) uint64 {
	t.Helper()
	next := first
	for _, call := range calls {
		var from, to, n, at uint64
		if _, err := fmt.Sscanf(call, "%d..%d@%d/%d", &from, &to, &n, &at); err != nil {
			t.Fatal(err)
		}
		if from != next || to < from || n > 0 && at >= from {
			t.Errorf("calls %v: bad call %s", calls, call)
		}
		next = to + 1
	}
	return next
}

func TestForceSlot(t *testing.T) {
	cases := []struct {
		name  string
		force uint64
	}{
		{"slot 7", 7},
		{"slot 0 is checkpointed too", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := storetest.Open(t)
			step := &recordingStep{}
			// Out of slot order, and a file twice: fine when forced.
			files := photonFiles(43, 40, 42, 43)
			st, err := Run(context.Background(), Config{Store: s, Source: source.NewFileList(files), Steps: []StateStep{step}, ForceSlot: &c.force})
			if err != nil {
				t.Fatal(err)
			}
			if st.Slot != c.force || st.Txs != 4 {
				t.Errorf("stats %+v", st)
			}
			r := one(t, s, `SELECT count(), uniqExact(signature), min(slot), max(slot), max(block_time) FROM transactions FINAL`, nil)
			if fmt.Sprint(r) != fmt.Sprintf("[3 3 %d %d 0]", c.force, c.force) {
				t.Errorf("transactions %v", r)
			}
			r = one(t, s, `SELECT count(), max(slot) FROM indexer_checkpoints WHERE name = 'main'`, nil)
			if fmt.Sprint(r) != fmt.Sprintf("[1 %d]", c.force) {
				t.Errorf("checkpoints %v", r)
			}
			if want := fmt.Sprintf("%d..%d@0/0", c.force, c.force); len(step.calls) != 1 || step.calls[0] != want {
				t.Errorf("step calls %v, want [%s]", step.calls, want)
			}
		})
	}

	t.Run("unforced, the same list is out of order", func(t *testing.T) {
		s := storetest.Open(t)
		_, err := Run(context.Background(), Config{Store: s, Source: source.NewFileList(photonFiles(43, 40))})
		if err == nil || !strings.Contains(err.Error(), "source out of order") {
			t.Fatalf("run: %v", err)
		}
	})
}

// waitingStep holds its first range until every transaction of the run is
// stored: only a pipeline that goes on inserting while a step runs lets it
// finish. Its first Apply opens started (gatedSource's gate).
type waitingStep struct {
	recordingStep
	want    uint64
	started chan struct{}
}

func (w *waitingStep) Apply(ctx context.Context, s arrowstore.Writer, from, to uint64) error {
	if len(w.calls) == 0 {
		close(w.started)
		deadline := time.Now().Add(20 * time.Second)
		for {
			res, err := s.Query(ctx, `SELECT count() FROM transactions FINAL`, nil)
			if err != nil {
				return err
			}
			if n := res.Rows[0][0].(uint64); n >= w.want {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("range %d..%d: the other transactions were not inserted while it ran", from, to)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return w.recordingStep.Apply(ctx, s, from, to)
}

// gatedSource emits its source's first two items, then the rest once gate
// is closed (or after 20 s, so a pipeline that never steps fails the test
// instead of hanging it). A slot is complete once the next slot's item
// arrives, so the second item completes the first slot and nothing more;
// without the gate, a loaded machine could complete the second slot too
// before the stepper woke, and the first range would hold two slots.
type gatedSource struct {
	source.Source
	gate <-chan struct{}
}

func (g gatedSource) Read(ctx context.Context, emit func(source.Item) error) error {
	n := 0
	return g.Source.Read(ctx, func(it source.Item) error {
		if n++; n == 3 {
			select {
			case <-g.gate:
			case <-time.After(20 * time.Second):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return emit(it)
	})
}

func TestStepsRunBesideInserts(t *testing.T) {
	s := storetest.Open(t)
	step := &waitingStep{want: 4, started: make(chan struct{})}
	st, err := Run(context.Background(), Config{
		Store: s, Source: gatedSource{source.NewFileList(photonFiles(40, 41, 42, 43)), step.started},
		// A part per batch: each transaction commits on its own.
		Steps: []StateStep{step}, BatchRows: 1, PartRows: 1, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Slot != 43 || indexedSlot(t, s) != 43 {
		t.Errorf("checkpoint %d, stats %d", indexedSlot(t, s), st.Slot)
	}
	// The first range is the first slot alone; what was committed while it
	// ran is covered by fewer, longer ranges, contiguous up to 43.
	if len(step.calls) == 0 || !strings.HasPrefix(step.calls[0], "40..40@") || len(step.calls) > 3 {
		t.Fatalf("calls %v", step.calls)
	}
	if next := checkRanges(t, step.calls, 40); next != 44 {
		t.Errorf("calls %v do not reach 43", step.calls)
	}
}

// TestRunWritesParts: a fast source's batches go into one part a table,
// committed whole; with a part per batch, each batch is a part of its
// own. Parts of level 0 are the ones inserts wrote (merges make higher
// levels), active or not.
func TestRunWritesParts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		partRows int
		want     uint64
	}{{"default parts", 0, 1}, {"a part per batch", 1, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.Open(t)
			if _, err := Run(context.Background(), Config{
				Store: s, Source: source.NewFileList(photonFiles(40, 41, 42, 43)),
				BatchRows: 1, PartRows: tc.partRows, Workers: 1,
			}); err != nil {
				t.Fatal(err)
			}
			if n := one(t, s, `SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'transactions' AND level = 0`, nil)[0]; n != tc.want {
				t.Errorf("%v parts of transactions, want %d", n, tc.want)
			}
			if n := one(t, s, `SELECT count() FROM transactions FINAL`, nil)[0]; n != uint64(4) {
				t.Errorf("%v transactions, want 4", n)
			}
		})
	}
}
