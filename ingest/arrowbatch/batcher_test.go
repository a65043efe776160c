package arrowbatch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// testRow is a row of a test table with a chosen size.
type testRow struct {
	table string
	v     uint64
	size  int
}

func (r *testRow) Table() string { return r.table }

type testBuilder struct {
	Base
	v *array.Uint64Builder
}

func testTable(name string) Table {
	return Table{Name: name, New: func(mem memory.Allocator) Builder {
		b := &testBuilder{}
		b.Base = NewBase(Col(mem, &b.v, "v", arrow.PrimitiveTypes.Uint64))
		return b
	}}
}

func (b *testBuilder) Append(r Row) error {
	row, ok := r.(*testRow)
	if !ok {
		return fmt.Errorf("test: cannot append %T", r)
	}
	b.v.Append(row.v)
	b.Added(row.size)
	return nil
}

// recorder is an Inserter that remembers every committed part as
// "table:v,v,...", in commit order.
type recorder struct {
	mu       sync.Mutex
	got      []string
	fail     error         // every commit fails with it
	openFail error         // every open fails with it
	gate     chan struct{} // if set, each append waits for a token
	slow     uint64        // a part holding this value commits 50ms late
	// hold: a part holding a value it names commits once release is
	// closed.
	hold    func(v uint64) bool
	release chan struct{}
}

func (r *recorder) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	if r.openFail != nil {
		return nil, r.openFail
	}
	return &recPart{r: r, table: table}, nil
}

type recPart struct {
	r     *recorder
	table string
	vs    []string
	slow  bool
	held  bool
	done  bool
}

func (p *recPart) Append(rec arrow.RecordBatch) error {
	if p.done {
		return arrowstore.ErrPartDone
	}
	if p.r.gate != nil {
		<-p.r.gate
	}
	col := rec.Column(0).(*array.Uint64)
	for i := 0; i < col.Len(); i++ {
		p.vs = append(p.vs, fmt.Sprint(col.Value(i)))
		p.slow = p.slow || p.r.slow != 0 && col.Value(i) == p.r.slow
		p.held = p.held || p.r.hold != nil && p.r.hold(col.Value(i))
	}
	return nil
}

func (p *recPart) Commit() error {
	if p.done {
		return arrowstore.ErrPartDone
	}
	p.done = true
	if p.slow {
		time.Sleep(50 * time.Millisecond)
	}
	if p.held {
		<-p.r.release
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	if p.r.fail != nil {
		return p.r.fail
	}
	p.r.got = append(p.r.got, p.table+":"+strings.Join(p.vs, ","))
	return nil
}

func (p *recPart) Abort() error {
	p.done = true
	return nil
}

func (r *recorder) inserts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// fakeClock is a settable clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestBatcherFlushes(t *testing.T) {
	type step = batchStep
	add := func(v uint64) step { return step{add: v} }
	cases := []struct {
		name   string
		limits Limits
		steps  []step
		before []string // inserts before Close
		after  []string // inserts after Close
	}{
		{
			name:   "rows",
			limits: Limits{Rows: 2, Bytes: 1 << 20, Age: time.Hour, PartRows: 1},
			steps:  []step{add(1), add(2), add(3), add(4), add(5)},
			before: []string{"t:1,2", "t:3,4"},
			after:  []string{"t:1,2", "t:3,4", "t:5"},
		},
		{
			name:   "bytes",
			limits: Limits{Rows: 1000, Bytes: 25, Age: time.Hour, PartRows: 1},
			steps:  []step{add(1), add(2), add(3), add(4)},
			before: []string{"t:1,2,3"},
			after:  []string{"t:1,2,3", "t:4"},
		},
		{
			name:   "age",
			limits: Limits{Rows: 1000, Bytes: 1 << 20, Age: time.Second},
			steps: []step{add(1), {advance: 500 * time.Millisecond}, add(2), {poll: true},
				{advance: 499 * time.Millisecond}, {poll: true}, {advance: time.Millisecond}, {poll: true}, add(3), {poll: true}},
			before: []string{"t:1,2"},
			after:  []string{"t:1,2", "t:3"},
		},
		{
			// Batches of 2 go to one part, committed at 5 rows.
			name:   "part rows",
			limits: Limits{Rows: 2, Bytes: 1 << 20, Age: time.Hour, PartRows: 5, PartAge: time.Hour},
			steps:  []step{add(1), add(2), add(3), add(4), add(5), add(6), add(7)},
			before: []string{"t:1,2,3,4,5,6"},
			after:  []string{"t:1,2,3,4,5,6", "t:7"},
		},
		{
			name:   "part bytes",
			limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartRows: 100, PartBytes: 30, PartAge: time.Hour},
			steps:  []step{add(1), add(2), add(3), add(4)},
			before: []string{"t:1,2,3"},
			after:  []string{"t:1,2,3", "t:4"},
		},
		{
			// A part is committed when its oldest row is PartAge old,
			// though its batches went by size.
			name:   "part age",
			limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartRows: 100, PartAge: 10 * time.Second},
			steps: []step{add(1), {advance: 5 * time.Second}, add(2), {poll: true}, {advance: 4999 * time.Millisecond}, {poll: true},
				add(3), {advance: time.Millisecond}, {poll: true}, add(4)},
			before: []string{"t:1,2,3"},
			after:  []string{"t:1,2,3", "t:4"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			rec := &recorder{}
			clock := &fakeClock{t: time.Unix(1000, 0)}
			var committed []uint64
			b, err := New(rec, Options{Tables: []Table{testTable("t")}, Limits: c.limits, Now: clock.now,
				OnCommit: func(seq uint64) { committed = append(committed, seq) }})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.steps {
				switch {
				case s.advance > 0:
					clock.t = clock.t.Add(s.advance)
				case s.poll:
					if err := b.Poll(ctx); err != nil {
						t.Fatal(err)
					}
				default:
					if err := b.Add(ctx, s.add, []Row{&testRow{table: "t", v: s.add, size: 10}}); err != nil {
						t.Fatal(err)
					}
				}
			}
			waitInserts(t, b)
			if got := rec.inserts(); !slices.Equal(got, c.before) {
				t.Errorf("before close: %v, want %v", got, c.before)
			}
			if err := b.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if got := rec.inserts(); !slices.Equal(got, c.after) {
				t.Errorf("after close: %v, want %v", got, c.after)
			}
			slices.Sort(committed)
			if want := []uint64{1, 2, 3, 4, 5, 6, 7}[:len(committed)]; len(committed) != countRows(c.steps) || !slices.Equal(committed, want) {
				t.Errorf("committed %v", committed)
			}
		})
	}
}

// batchStep adds a row with value add (size 10) unless it advances the
// clock or polls.
type batchStep struct {
	add     uint64
	advance time.Duration
	poll    bool
}

func countRows(steps []batchStep) int {
	n := 0
	for _, s := range steps {
		if s.advance == 0 && !s.poll {
			n++
		}
	}
	return n
}

// waitInserts lets inserts already started finish, without flushing more.
func waitInserts(t *testing.T, b *Batcher) {
	t.Helper()
	for b.inflight > 0 {
		b.handle(<-b.results)
	}
}

func TestBatcherCommitsAfterEveryTable(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	var committed []uint64
	b, err := New(rec, Options{
		Tables:   []Table{testTable("a"), testTable("b")},
		Limits:   Limits{Rows: 2, Bytes: 1 << 20, Age: time.Hour, PartRows: 1},
		OnCommit: func(seq uint64) { committed = append(committed, seq) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Item 1 writes both tables; item 2 fills table a, which flushes alone.
	must(t, b.Add(ctx, 1, []Row{&testRow{table: "a", v: 1}, &testRow{table: "b", v: 1}}))
	must(t, b.Add(ctx, 2, []Row{&testRow{table: "a", v: 2}}))
	waitInserts(t, b)
	if !slices.Equal(committed, []uint64{2}) {
		t.Fatalf("committed %v before table b flushed, want [2]", committed)
	}
	must(t, b.Add(ctx, 3, nil))
	if !slices.Equal(committed, []uint64{2, 3}) {
		t.Fatalf("item without rows: committed %v", committed)
	}
	must(t, b.Close(ctx))
	if !slices.Equal(committed, []uint64{2, 3, 1}) {
		t.Fatalf("committed %v, want [2 3 1]", committed)
	}
}

// TestBatcherOneAppendPerPart: a part takes one append at a time, in
// order.
func TestBatcherOneAppendPerPart(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{gate: make(chan struct{})}
	b, err := New(rec, Options{Tables: []Table{testTable("t")}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartAge: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	must(t, b.Add(ctx, 1, []Row{&testRow{table: "t", v: 1}}))
	done := make(chan error)
	go func() { done <- b.Add(ctx, 2, []Row{&testRow{table: "t", v: 2}}) }()
	select {
	case <-done:
		t.Fatal("second append started while the first was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	rec.gate <- struct{}{}
	must(t, <-done)
	rec.gate <- struct{}{}
	must(t, b.Close(ctx))
	if got := rec.inserts(); !slices.Equal(got, []string{"t:1,2"}) {
		t.Fatalf("inserts %v", got)
	}
}

// TestBatcherCommitsInOrder: a table's next part commits after the last
// one, though the last one is slow.
func TestBatcherCommitsInOrder(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{slow: 1}
	var committed []uint64
	b, err := New(rec, Options{Tables: []Table{testTable("t")}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartRows: 1},
		OnCommit: func(seq uint64) { committed = append(committed, seq) }})
	if err != nil {
		t.Fatal(err)
	}
	must(t, b.Add(ctx, 1, []Row{&testRow{table: "t", v: 1}}))
	must(t, b.Add(ctx, 2, []Row{&testRow{table: "t", v: 2}}))
	must(t, b.Add(ctx, 3, []Row{&testRow{table: "t", v: 3}}))
	must(t, b.Close(ctx))
	if got := rec.inserts(); !slices.Equal(got, []string{"t:1", "t:2", "t:3"}) {
		t.Fatalf("inserts %v", got)
	}
	if !slices.Equal(committed, []uint64{1, 2, 3}) {
		t.Fatalf("committed %v", committed)
	}
}

// TestBatcherAnyOrderCommitsOverlap: an AnyOrder table's next part
// commits while the last one still does, finishing first, and a third
// waits while AnyOrderCommits are in flight; items commit as their rows
// do, in any order.
func TestBatcherAnyOrderCommitsOverlap(t *testing.T) {
	ctx := context.Background()
	held := make(chan struct{})
	rec := &recorder{hold: func(v uint64) bool { return v <= AnyOrderCommits }, release: held}
	var mu sync.Mutex
	var committed []uint64
	tb := testTable("t")
	tb.AnyOrder = true
	b, err := New(rec, Options{Tables: []Table{tb}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartRows: 1},
		OnCommit: func(seq uint64) { mu.Lock(); committed = append(committed, seq); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	// Parts 1 and 2 are held in their commits, both in flight at once.
	for v := uint64(1); v <= AnyOrderCommits; v++ {
		addWithin(t, b, v)
	}
	third := make(chan error)
	go func() { third <- b.Add(ctx, 3, []Row{&testRow{table: "t", v: 3}}) }()
	select {
	case err := <-third:
		t.Fatalf("a third commit started while %d were in flight (%v)", AnyOrderCommits, err)
	case <-time.After(50 * time.Millisecond):
	}
	if got := rec.inserts(); len(got) != 0 {
		t.Fatalf("inserts %v while every part is held", got)
	}
	close(held)
	must(t, <-third)
	must(t, b.Close(ctx))
	got := rec.inserts()
	slices.Sort(got)
	if !slices.Equal(got, []string{"t:1", "t:2", "t:3"}) {
		t.Fatalf("inserts %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(committed)
	if !slices.Equal(committed, []uint64{1, 2, 3}) {
		t.Fatalf("committed %v", committed)
	}
}

// TestBatcherAnyOrderFinishesOutOfOrder: a later part of an AnyOrder
// table that commits first reports its items at once, not after the
// earlier part.
func TestBatcherAnyOrderFinishesOutOfOrder(t *testing.T) {
	ctx := context.Background()
	held := make(chan struct{})
	rec := &recorder{hold: func(v uint64) bool { return v == 1 }, release: held}
	committed := make(chan uint64, 3)
	tb := testTable("t")
	tb.AnyOrder = true
	b, err := New(rec, Options{Tables: []Table{tb}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour, PartRows: 1},
		OnCommit: func(seq uint64) { committed <- seq }})
	if err != nil {
		t.Fatal(err)
	}
	addWithin(t, b, 1)
	addWithin(t, b, 2)
	// Poll hands over finished writes; part 1 stays held throughout.
	deadline := time.Now().Add(10 * time.Second)
	var first uint64
	for first == 0 {
		must(t, b.Poll(ctx))
		select {
		case first = <-committed:
		default:
			if time.Now().After(deadline) {
				t.Fatalf("item 2 not committed while part 1 is held (inserts %v)", rec.inserts())
			}
			time.Sleep(time.Millisecond)
		}
	}
	if first != 2 {
		t.Fatalf("item %d committed first, want 2", first)
	}
	if got := rec.inserts(); !slices.Equal(got, []string{"t:2"}) {
		t.Fatalf("inserts %v, want [t:2]", got)
	}
	close(held)
	must(t, b.Close(ctx))
	if seq := <-committed; seq != 1 {
		t.Fatalf("then item %d, want 1", seq)
	}
}

// addWithin adds item v with a row of value v to table t, failing the
// test if the Add waits (for a held commit) for 10 s.
func addWithin(t *testing.T, b *Batcher, v uint64) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- b.Add(context.Background(), v, []Row{&testRow{table: "t", v: v}}) }()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(10 * time.Second):
		t.Fatalf("adding item %d waited for a commit in flight", v)
	}
}

func TestBatcherErrors(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	rec := &recorder{fail: boom}
	committed := 0
	b, err := New(rec, Options{Tables: []Table{testTable("t")}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour},
		OnCommit: func(uint64) { committed++ }})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ctx, 1, []Row{&testRow{table: "nope"}}); err == nil || !strings.Contains(err.Error(), `unregistered table "nope"`) {
		t.Fatalf("unregistered table: %v", err)
	}
	if err := b.Add(ctx, 1, []Row{&BlockRow{}}); err == nil || !strings.Contains(err.Error(), "unregistered") {
		t.Fatalf("foreign row: %v", err)
	}
	_ = b.Add(ctx, 2, []Row{&testRow{table: "t", v: 2}})
	if err := b.Close(ctx); !errors.Is(err, boom) || !strings.Contains(err.Error(), "commit 1 rows into t") {
		t.Fatalf("close: %v", err)
	}
	if committed != 0 {
		t.Fatalf("%d items committed despite the failed insert", committed)
	}
	if err := b.Add(ctx, 3, nil); err == nil {
		t.Fatal("add after close succeeded")
	}
	if _, err := New(rec, Options{Tables: []Table{testTable("t"), testTable("t")}}); err == nil {
		t.Fatal("duplicate table accepted")
	}

	// A part that cannot open fails the batcher, and nothing commits.
	nope := errors.New("no connection")
	b, err = New(&recorder{openFail: nope}, Options{Tables: []Table{testTable("t")}, Limits: Limits{Rows: 1},
		OnCommit: func(uint64) { committed++ }})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ctx, 1, []Row{&testRow{table: "t", v: 1}}); !errors.Is(err, nope) || !strings.Contains(err.Error(), "open a part of t") {
		t.Fatalf("open failure: %v", err)
	}
	if err := b.Close(ctx); !errors.Is(err, nope) || committed != 0 {
		t.Fatalf("close after an open failure: %v, %d committed", err, committed)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
