package arrowbatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Inserter opens parts of tables; arrowstore.Writer is one.
type Inserter interface {
	OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error)
}

// Options configure a Batcher.
type Options struct {
	Tables []Table
	Limits Limits
	// OnInsert is called after each part committed, with its rows and
	// bytes.
	OnInsert func(table string, rows, bytes int)
	// OnCommit is called once every row of item seq has been committed.
	OnCommit func(seq uint64)
	// Now is the clock for the age limit; nil means time.Now.
	Now   func() time.Time
	Alloc memory.Allocator
}

// Batcher groups rows by table into Arrow batches and appends each
// table's batches to an open part of the table in the background,
// committing the part by the Limits. It is driven from one goroutine: Add,
// Poll, Close and Abort must not be called concurrently, and the
// callbacks run on that goroutine.
//
// A table's open part takes one append at a time, in the order the rows
// were added, and a table's parts commit in the order they were opened:
// for a ReplacingMergeTree without a version column, the last row
// inserted wins, and this keeps re-ingestion deterministic. A part's
// commit runs while the table's next part takes appends; the next commit
// waits for it. An AnyOrder table's parts may commit AnyOrderCommits at a
// time, finishing in any order. Different tables write in parallel.
type Batcher struct {
	ins      Inserter
	opts     Options
	tables   map[string]*table
	order    []*table
	pending  map[uint64]int // item → tables whose uncommitted parts or batches hold its rows
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

	// The open part, the items and rows appended to it, and when its
	// oldest row was added. busy: an append to it is in flight.
	part      arrowstore.PartWriter
	partSeqs  []uint64
	partRows  int
	partBytes int
	partSince time.Time
	busy      bool
	// commits are the table's commits in flight, oldest first, each
	// closed when it has finished; maxCommits may be in flight at once.
	commits    []chan struct{}
	maxCommits int
}

type result struct {
	t         *table
	committed bool // a commit (else an append to the open part)
	seqs      []uint64
	rows      int
	bytes     int
	err       error
}

// New returns a batcher writing through ins.
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
		tb := &table{name: t.Name, b: t.New(opts.Alloc), maxCommits: 1}
		if t.AnyOrder {
			tb.maxCommits = AnyOrderCommits
		}
		b.tables[t.Name] = tb
		b.order = append(b.order, tb)
	}
	// A slot for each write a table may have in flight (an append and
	// its commits): a write never blocks on reporting its result.
	b.results = make(chan result, (1+AnyOrderCommits)*len(b.order))
	return b, nil
}

// Add appends the rows of item seq and sends the batches of tables that
// reached a limit to their parts. An item without rows is committed at
// once.
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
			b.flush(ctx, t, false)
		}
	}
	return b.err
}

// Poll handles finished writes, sends batches whose oldest row reached
// the age limit (committing their parts) and commits parts that reached
// theirs. Call it periodically.
func (b *Batcher) Poll(ctx context.Context) error {
	if err := b.usable(); err != nil {
		return err
	}
	b.drain()
	now := b.opts.Now()
	lim := b.opts.Limits
	for _, t := range b.order {
		if b.err != nil {
			break
		}
		// flush waits for an append in flight to the part.
		if t.b.Len() > 0 && now.Sub(t.since) >= lim.Age || t.part != nil && now.Sub(t.partSince) >= lim.PartAge {
			b.flush(ctx, t, true)
		}
	}
	return b.err
}

// Flush sends every batch and commits its part now, whatever its age: a
// follower that has taken in a whole slot and has nothing else waiting
// makes it visible without waiting for the age limit.
func (b *Batcher) Flush(ctx context.Context) error {
	if err := b.usable(); err != nil {
		return err
	}
	b.drain()
	for _, t := range b.order {
		if b.err != nil {
			break
		}
		if t.b.Len() > 0 || t.part != nil {
			b.flush(ctx, t, true)
		}
	}
	return b.err
}

// Close commits every remaining row, waits for all writes and releases
// the builders.
func (b *Batcher) Close(ctx context.Context) error {
	if err := b.usable(); err != nil {
		return b.Abort()
	}
	for _, t := range b.order {
		if b.err == nil && (t.b.Len() > 0 || t.part != nil) {
			b.flush(ctx, t, true)
		}
	}
	return b.Abort()
}

// Abort waits for writes in flight, aborts the open parts, drops rows not
// yet committed and releases the builders. It returns the first write
// error, if any.
func (b *Batcher) Abort() error {
	for b.inflight > 0 {
		b.handle(<-b.results)
	}
	if !b.closed {
		b.closed = true
		for _, t := range b.order {
			if t.part != nil {
				_ = t.part.Abort()
				t.part = nil
			}
		}
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

// flush appends t's batch to its open part (opening one if needed), first
// waiting for the part's previous append, and commits the part when
// commit is set or the part reached a limit. The commit takes the part:
// the table's next batch opens a new one.
func (b *Batcher) flush(ctx context.Context, t *table, commit bool) {
	for t.busy {
		b.handle(<-b.results)
	}
	if b.err != nil {
		return
	}
	var rec arrow.RecordBatch
	if t.b.Len() > 0 {
		rows, size, since := t.b.Len(), t.b.Size(), t.since
		rec = t.b.NewRecord()
		if t.part == nil {
			w, err := b.ins.OpenPart(ctx, t.name, rec.Schema())
			if err != nil {
				rec.Release()
				b.err = fmt.Errorf("open a part of %s: %w", t.name, err)
				return
			}
			t.part, t.partSince = w, since
		}
		t.partRows += rows
		t.partBytes += size
		t.partSeqs = append(t.partSeqs, t.seqs...)
		t.seqs = nil
	}
	if t.part == nil {
		return
	}
	lim := b.opts.Limits
	w := t.part
	full := t.partRows >= lim.PartRows || t.partBytes >= lim.PartBytes
	if !commit && !full {
		t.busy = true
		b.inflight++
		go func() {
			err := w.Append(rec)
			rec.Release()
			b.results <- result{t: t, err: err}
		}()
		return
	}
	// A part due while the table has maxCommits in flight waits for one
	// of them (the engine then holds at most maxCommits+1 parts of a
	// table; a part that kept growing instead made the 20M bench's ingest
	// slower, not faster). With one, the table's parts commit in order.
	b.waitCommits(t, t.maxCommits-1)
	seqs, rows, size := t.partSeqs, t.partRows, t.partBytes
	done := make(chan struct{})
	t.commits = append(t.commits, done)
	t.part, t.partSeqs, t.partRows, t.partBytes = nil, nil, 0, 0
	b.inflight++
	go func() {
		var err error
		if rec != nil {
			err = w.Append(rec)
			rec.Release()
		}
		if err == nil {
			err = w.Commit()
		} else {
			_ = w.Abort()
		}
		// Closed before the result is sent: whoever handles it finds the
		// commit no longer in flight.
		close(done)
		b.results <- result{t: t, committed: true, seqs: seqs, rows: rows, bytes: size, err: err}
	}()
}

// committing drops t's finished commits and returns how many are still
// in flight.
func (t *table) committing() int {
	live := t.commits[:0]
	for _, c := range t.commits {
		select {
		case <-c:
		default:
			live = append(live, c)
		}
	}
	clear(t.commits[len(live):])
	t.commits = live
	return len(live)
}

// waitCommits waits until at most n of t's commits are in flight,
// handling results meanwhile.
func (b *Batcher) waitCommits(t *table, n int) {
	for t.committing() > n {
		select {
		case r := <-b.results:
			b.handle(r)
		case <-t.commits[0]:
		}
	}
}

// drain handles the writes that have finished, without waiting.
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
	if !r.committed {
		r.t.busy = false
	}
	b.inflight--
	if r.err != nil {
		if b.err == nil {
			what := "append to a part of"
			if r.committed {
				what = fmt.Sprintf("commit %d rows into", r.rows)
			}
			b.err = fmt.Errorf("%s %s: %w", what, r.t.name, r.err)
		}
		return
	}
	if !r.committed {
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
