package arrowbatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Inserter writes a record batch into a table; store.Store is one.
type Inserter interface {
	Insert(ctx context.Context, table string, rec arrow.RecordBatch) error
}

// Options configure a Batcher.
type Options struct {
	Tables []Table
	Limits Limits
	// OnInsert is called after each successful insert.
	OnInsert func(table string, rows, bytes int)
	// OnCommit is called once every row of item seq has been inserted.
	OnCommit func(seq uint64)
	// Now is the clock for the age limit; nil means time.Now.
	Now   func() time.Time
	Alloc memory.Allocator
}

// Batcher groups rows by table and inserts each table's batch in the
// background. It is driven from one goroutine: Add, Poll, Close and Abort
// must not be called concurrently, and the callbacks run on that goroutine.
//
// Each table has at most one insert in flight, so a table receives its
// rows in the order they were added: for a ReplacingMergeTree without a
// version column, the last row inserted wins, and this keeps re-ingestion
// deterministic. Different tables insert in parallel.
type Batcher struct {
	ins      Inserter
	opts     Options
	tables   map[string]*table
	order    []*table
	pending  map[uint64]int // item → tables still holding its rows
	results  chan result
	inflight int
	err      error
	closed   bool
}

type table struct {
	name  string
	b     Builder
	seqs  []uint64 // items with rows in b, in order
	since time.Time
	busy  bool
}

type result struct {
	t           *table
	seqs        []uint64
	rows, bytes int
	err         error
}

// New returns a batcher inserting through ins.
func New(ins Inserter, opts Options) (*Batcher, error) {
	if ins == nil {
		return nil, errors.New("batcher: no inserter")
	}
	opts.Limits = opts.Limits.WithDefaults()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Alloc == nil {
		opts.Alloc = memory.NewGoAllocator()
	}
	b := &Batcher{ins: ins, opts: opts, tables: map[string]*table{}, pending: map[uint64]int{}}
	for _, t := range opts.Tables {
		if _, dup := b.tables[t.Name]; dup {
			b.release()
			return nil, fmt.Errorf("batcher: table %q registered twice", t.Name)
		}
		tb := &table{name: t.Name, b: t.New(opts.Alloc)}
		b.tables[t.Name] = tb
		b.order = append(b.order, tb)
	}
	// One slot per table: an insert never blocks on reporting its result.
	b.results = make(chan result, len(b.order))
	return b, nil
}

// Add appends the rows of item seq and starts inserts for tables that
// reached a limit. An item without rows is committed at once.
func (b *Batcher) Add(ctx context.Context, seq uint64, rows []Row) error {
	if err := b.usable(); err != nil {
		return err
	}
	b.drain()
	if len(rows) == 0 {
		b.commit(seq)
		return b.err
	}
	for _, r := range rows {
		t, ok := b.tables[r.Table()]
		if !ok {
			return fmt.Errorf("batcher: item %d has a row for unregistered table %q", seq, r.Table())
		}
		if err := t.b.Append(r); err != nil {
			return fmt.Errorf("batcher: item %d: %w", seq, err)
		}
		if t.b.Len() == 1 {
			t.since = b.opts.Now()
		}
		if n := len(t.seqs); n == 0 || t.seqs[n-1] != seq {
			t.seqs = append(t.seqs, seq)
			b.pending[seq]++
		}
	}
	lim := b.opts.Limits
	for _, t := range b.order {
		if t.b.Len() >= lim.Rows || t.b.Size() >= lim.Bytes {
			b.flush(ctx, t)
		}
	}
	return b.err
}

// Poll handles finished inserts and starts inserts for tables whose
// oldest row reached the age limit. Call it periodically.
func (b *Batcher) Poll(ctx context.Context) error {
	if err := b.usable(); err != nil {
		return err
	}
	b.drain()
	now := b.opts.Now()
	for _, t := range b.order {
		if !t.busy && t.b.Len() > 0 && now.Sub(t.since) >= b.opts.Limits.Age {
			b.flush(ctx, t)
		}
	}
	return b.err
}

// Close inserts every remaining row, waits for all inserts and releases
// the builders.
func (b *Batcher) Close(ctx context.Context) error {
	if err := b.usable(); err != nil {
		return b.Abort()
	}
	for _, t := range b.order {
		if b.err == nil && t.b.Len() > 0 {
			b.flush(ctx, t)
		}
	}
	return b.Abort()
}

// Abort waits for inserts in flight, drops rows not yet sent and releases
// the builders. It returns the first insert error, if any.
func (b *Batcher) Abort() error {
	for b.inflight > 0 {
		b.handle(<-b.results)
	}
	if !b.closed {
		b.closed = true
		b.release()
	}
	return b.err
}

func (b *Batcher) usable() error {
	if b.closed {
		return errors.New("batcher: closed")
	}
	return b.err
}

// flush starts inserting t's rows, first waiting for its previous insert.
func (b *Batcher) flush(ctx context.Context, t *table) {
	for t.busy {
		b.handle(<-b.results)
	}
	if t.b.Len() == 0 {
		return
	}
	rows, size, seqs := t.b.Len(), t.b.Size(), t.seqs
	rec := t.b.NewRecord()
	t.seqs = nil
	t.busy = true
	b.inflight++
	go func() {
		err := b.ins.Insert(ctx, t.name, rec)
		rec.Release()
		b.results <- result{t: t, seqs: seqs, rows: rows, bytes: size, err: err}
	}()
}

// drain handles the inserts that have finished, without waiting.
func (b *Batcher) drain() {
	for {
		select {
		case r := <-b.results:
			b.handle(r)
		default:
			return
		}
	}
}

func (b *Batcher) handle(r result) {
	r.t.busy = false
	b.inflight--
	if r.err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("insert %d rows into %s: %w", r.rows, r.t.name, r.err)
		}
		return
	}
	if b.opts.OnInsert != nil {
		b.opts.OnInsert(r.t.name, r.rows, r.bytes)
	}
	for _, seq := range r.seqs {
		if b.pending[seq]--; b.pending[seq] == 0 {
			delete(b.pending, seq)
			b.commit(seq)
		}
	}
}

func (b *Batcher) commit(seq uint64) {
	if b.opts.OnCommit != nil {
		b.opts.OnCommit(seq)
	}
}

func (b *Batcher) release() {
	for _, t := range b.tables {
		t.b.Release()
	}
}
