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

	"github.com/dasch-labs/dasch/store"
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
		b := &testBuilder{Base: NewBase(mem, arrow.NewSchema([]arrow.Field{field("v", arrow.PrimitiveTypes.Uint64)}, nil))}
		b.v = b.Fields()[0].(*array.Uint64Builder)
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
}

func (r *recorder) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (store.PartWriter, error) {
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
	done  bool
}

func (p *recPart) Append(rec arrow.RecordBatch) error {
	if p.done {
		return store.ErrPartDone
	}
	if p.r.gate != nil {
		<-p.r.gate
	}
	col := rec.Column(0).(*array.Uint64)
	for i := 0; i < col.Len(); i++ {
		p.vs = append(p.vs, fmt.Sprint(col.Value(i)))
		p.slow = p.slow || p.r.slow != 0 && col.Value(i) == p.r.slow
	}
	return nil
}

func (p *recPart) Commit() error {
	if p.done {
		return store.ErrPartDone
	}
	p.done = true
	if p.slow {
		time.Sleep(50 * time.Millisecond)
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
