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

// recorder is an Inserter that remembers every insert as "table:v,v,...".
type recorder struct {
	mu   sync.Mutex
	got  []string
	fail error
	gate chan struct{} // if set, each insert waits for a token
}

func (r *recorder) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if r.gate != nil {
		<-r.gate
	}
	col := rec.Column(0).(*array.Uint64)
	var vs []string
	for i := 0; i < col.Len(); i++ {
		vs = append(vs, fmt.Sprint(col.Value(i)))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	r.got = append(r.got, table+":"+strings.Join(vs, ","))
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
			limits: Limits{Rows: 2, Bytes: 1 << 20, Age: time.Hour},
			steps:  []step{add(1), add(2), add(3), add(4), add(5)},
			before: []string{"t:1,2", "t:3,4"},
			after:  []string{"t:1,2", "t:3,4", "t:5"},
		},
		{
			name:   "bytes",
			limits: Limits{Rows: 1000, Bytes: 25, Age: time.Hour},
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
			if want := []uint64{1, 2, 3, 4, 5}[:len(committed)]; len(committed) != countRows(c.steps) || !slices.Equal(committed, want) {
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
		Limits:   Limits{Rows: 2, Bytes: 1 << 20, Age: time.Hour},
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

func TestBatcherOneInsertPerTable(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{gate: make(chan struct{})}
	b, err := New(rec, Options{Tables: []Table{testTable("t")}, Limits: Limits{Rows: 1, Bytes: 1 << 20, Age: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	must(t, b.Add(ctx, 1, []Row{&testRow{table: "t", v: 1}}))
	done := make(chan error)
	go func() { done <- b.Add(ctx, 2, []Row{&testRow{table: "t", v: 2}}) }()
	select {
	case <-done:
		t.Fatal("second insert started while the first was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	rec.gate <- struct{}{}
	must(t, <-done)
	rec.gate <- struct{}{}
	must(t, b.Close(ctx))
	if got := rec.inserts(); !slices.Equal(got, []string{"t:1", "t:2"}) {
		t.Fatalf("inserts %v", got)
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
	if err := b.Close(ctx); !errors.Is(err, boom) || !strings.Contains(err.Error(), "insert 1 rows into t") {
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
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
