// Package reqlog writes the request log: one row per API request, in
// the request_log table, inserted in the background in Arrow batches, as
// ingest writes its tables. Adding a row never blocks: the buffer is
// bounded, and a row that finds it full is counted as dropped.
//
// What a crash loses: the rows added since the last insert, which is at
// most FlushEvery old (or BatchRows rows, whichever comes first), plus
// those waiting behind an insert in flight or retried, never more than
// Capacity + BatchRows rows. Close writes every row added before it.
package reqlog

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/schema"
)

// Row is one request.
type Row struct {
	At time.Time
	// ProjectID and KeyID are empty for a request without a valid key.
	ProjectID, KeyID string
	// Method is the JSON-RPC method or the route; Service its service.
	Method, Service string
	// CreditsMicro is what the request was charged, in micro-credits;
	// Billed whether it was charged at all.
	CreditsMicro uint64
	Billed       bool
	HTTPStatus   uint16
	// RPCCode is the JSON-RPC error code, 0 for a result.
	RPCCode int32
	// RequestBytes is the HTTP request body; ResponseBytes this
	// request's answer; BatchSize the requests in its HTTP request.
	RequestBytes, ResponseBytes uint32
	BatchSize                   uint16
	Latency                     time.Duration
	// ContextSlot is the slot the answer is consistent with, 0 if none.
	ContextSlot uint64
}

// Inserter is where rows go; arrowstore.Writer is one.
type Inserter interface {
	Insert(ctx context.Context, table string, rec arrow.RecordBatch) error
}

// Options tune a Log; zero values get the defaults.
type Options struct {
	// Capacity is the rows buffered between inserts. Default 16384.
	Capacity int
	// BatchRows sends an insert as soon as this many rows wait. Default
	// 8192.
	BatchRows int
	// FlushEvery sends the waiting rows at least this often. Default 1s.
	FlushEvery time.Duration
	// Attempts is how many times one insert is tried. Default 4, waiting
	// 100 ms, then twice as long each time.
	Attempts int
	// InsertTimeout bounds one attempt. Default 10s.
	InsertTimeout time.Duration
	Logger        *slog.Logger
	// OnInsert, when set, is told of each insert: its rows, how long it
	// took and its error.
	OnInsert func(rows int, took time.Duration, err error)
}

func (o *Options) defaults() {
	if o.Capacity <= 0 {
		o.Capacity = 16384
	}
	if o.BatchRows <= 0 {
		o.BatchRows = 8192
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = time.Second
	}
	if o.Attempts <= 0 {
		o.Attempts = 4
	}
	if o.InsertTimeout <= 0 {
		o.InsertTimeout = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Log is the request log writer. Add is safe for concurrent use.
type Log struct {
	ins  Inserter
	opts Options
	ch   chan Row
	stop chan struct{}
	done chan struct{}
	once sync.Once
	// flushes asks the writer to insert what it holds now.
	flushes chan chan struct{}

	closed                        atomic.Bool
	added, written, dropped, lost atomic.Uint64
}

// New starts a log writing to ins; Close stops it.
func New(ins Inserter, opts Options) (*Log, error) {
	if ins == nil {
		return nil, errors.New("reqlog: no inserter")
	}
	opts.defaults()
	l := &Log{ins: ins, opts: opts, ch: make(chan Row, opts.Capacity), stop: make(chan struct{}), done: make(chan struct{}),
		flushes: make(chan chan struct{})}
	go l.run()
	return l, nil
}

// Add queues r without waiting: it reports false, and counts the row as
// dropped, when the buffer is full or the log closed.
func (l *Log) Add(r Row) bool {
	if l.closed.Load() {
		l.dropped.Add(1)
		return false
	}
	select {
	case l.ch <- r:
		l.added.Add(1)
		return true
	default:
		l.dropped.Add(1)
		return false
	}
}

// Stats are the log's counters since New.
type Stats struct {
	// Added rows were buffered; Written reached the store; Dropped found
	// the buffer full; Lost were given up after every insert attempt
	// failed. Added − Written − Lost are waiting.
	Added, Written, Dropped, Lost uint64
	// Buffered rows wait for an insert now.
	Buffered int
}

// Stats reads the counters.
func (l *Log) Stats() Stats {
	return Stats{Added: l.added.Load(), Written: l.written.Load(), Dropped: l.dropped.Load(), Lost: l.lost.Load(),
		Buffered: len(l.ch)}
}

// Close stops taking rows, writes every row taken and returns when they
// are stored, or when ctx ends (the rows left are then lost).
func (l *Log) Close(ctx context.Context) error {
	l.once.Do(func() {
		l.closed.Store(true)
		close(l.stop)
	})
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("reqlog: close: %w", ctx.Err())
	}
}

// Flush inserts every row added before it was called and returns once
// they are stored (or given up, Stats.Lost), or when ctx ends.
func (l *Log) Flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case l.flushes <- ack:
	case <-l.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("reqlog: flush: %w", ctx.Err())
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("reqlog: flush: %w", ctx.Err())
	}
}

func (l *Log) run() {
	defer close(l.done)
	b := newBuilder()
	defer b.release()
	t := time.NewTicker(l.opts.FlushEvery)
	defer t.Stop()
	for {
		select {
		case r := <-l.ch:
			b.append(&r)
			if b.n >= l.opts.BatchRows {
				l.flush(b)
			}
		case <-t.C:
			l.flush(b)
		case ack := <-l.flushes:
			// The rows added before Flush was called, and no more: a
			// steady stream cannot keep it from returning.
			for n := len(l.ch); n > 0; n-- {
				r := <-l.ch
				b.append(&r)
				if b.n >= l.opts.BatchRows {
					l.flush(b)
				}
			}
			l.flush(b)
			close(ack)
		case <-l.stop:
			for {
				select {
				case r := <-l.ch:
					b.append(&r)
					if b.n >= l.opts.BatchRows {
						l.flush(b)
					}
					continue
				default:
				}
				break
			}
			l.flush(b)
			return
		}
	}
}

// flush inserts the built rows, trying again with the same record (and
// batch id) after a failure, so an insert that did reach the store before
// its error is not stored twice (the table's deduplication window).
func (l *Log) flush(b *builder) {
	if b.n == 0 {
		return
	}
	rec := b.record()
	defer rec.Release()
	n := int(rec.NumRows())
	wait := 100 * time.Millisecond
	var err error
	for attempt := 1; attempt <= l.opts.Attempts; attempt++ {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), l.opts.InsertTimeout)
		err = l.ins.Insert(ctx, schema.TableRequestLog, rec)
		cancel()
		if l.opts.OnInsert != nil {
			l.opts.OnInsert(n, time.Since(start), err)
		}
		if err == nil {
			l.written.Add(uint64(n))
			return
		}
		if attempt < l.opts.Attempts {
			time.Sleep(wait)
			wait *= 2
		}
	}
	l.lost.Add(uint64(n))
	l.opts.Logger.Error("request log rows lost", "rows", n, "attempts", l.opts.Attempts, "err", err)
}

// builder accumulates rows column by column.
type builder struct {
	mem    memory.Allocator
	schema *arrow.Schema
	n      int

	at                            *array.TimestampBuilder
	project, key, method, service *array.StringBuilder
	credits, slot, batchID        *array.Uint64Builder
	billed                        *array.BooleanBuilder
	status, batch                 *array.Uint16Builder
	code                          *array.Int32Builder
	reqBytes, respBytes, latency  *array.Uint32Builder
	all                           []array.Builder
}

func newBuilder() *builder {
	mem := memory.NewGoAllocator()
	ts := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	str := arrow.BinaryTypes.String
	fields := []arrow.Field{
		{Name: "at", Type: ts}, {Name: "project_id", Type: str}, {Name: "key_id", Type: str},
		{Name: "method", Type: str}, {Name: "service", Type: str},
		{Name: "credits_micro", Type: arrow.PrimitiveTypes.Uint64}, {Name: "billed", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "http_status", Type: arrow.PrimitiveTypes.Uint16}, {Name: "rpc_code", Type: arrow.PrimitiveTypes.Int32},
		{Name: "request_bytes", Type: arrow.PrimitiveTypes.Uint32}, {Name: "response_bytes", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "batch_size", Type: arrow.PrimitiveTypes.Uint16}, {Name: "latency_us", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "context_slot", Type: arrow.PrimitiveTypes.Uint64}, {Name: "batch_id", Type: arrow.PrimitiveTypes.Uint64},
	}
	b := &builder{mem: mem, schema: arrow.NewSchema(fields, nil)}
	b.at = array.NewTimestampBuilder(mem, ts)
	b.project, b.key = array.NewStringBuilder(mem), array.NewStringBuilder(mem)
	b.method, b.service = array.NewStringBuilder(mem), array.NewStringBuilder(mem)
	b.credits = array.NewUint64Builder(mem)
	b.billed = array.NewBooleanBuilder(mem)
	b.status, b.code = array.NewUint16Builder(mem), array.NewInt32Builder(mem)
	b.reqBytes, b.respBytes = array.NewUint32Builder(mem), array.NewUint32Builder(mem)
	b.batch, b.latency = array.NewUint16Builder(mem), array.NewUint32Builder(mem)
	b.slot, b.batchID = array.NewUint64Builder(mem), array.NewUint64Builder(mem)
	// In the order of fields.
	b.all = []array.Builder{b.at, b.project, b.key, b.method, b.service, b.credits, b.billed, b.status, b.code,
		b.reqBytes, b.respBytes, b.batch, b.latency, b.slot, b.batchID}
	return b
}

func (b *builder) append(r *Row) {
	b.at.Append(arrow.Timestamp(r.At.UnixMilli()))
	b.project.Append(r.ProjectID)
	b.key.Append(r.KeyID)
	b.method.Append(r.Method)
	b.service.Append(r.Service)
	b.credits.Append(r.CreditsMicro)
	b.billed.Append(r.Billed)
	b.status.Append(r.HTTPStatus)
	b.code.Append(r.RPCCode)
	b.reqBytes.Append(r.RequestBytes)
	b.respBytes.Append(r.ResponseBytes)
	b.batch.Append(r.BatchSize)
	b.latency.Append(uint32(min(r.Latency.Microseconds(), 1<<32-1)))
	b.slot.Append(r.ContextSlot)
	b.n++
}

// record returns the rows built as one record, each with the batch's
// random id, and starts the next batch.
func (b *builder) record() arrow.RecordBatch {
	var id [8]byte
	_, _ = rand.Read(id[:])
	batchID := binary.LittleEndian.Uint64(id[:])
	for range b.n {
		b.batchID.Append(batchID)
	}
	arrs := make([]arrow.Array, len(b.all))
	for i, ab := range b.all {
		arrs[i] = ab.NewArray()
	}
	rec := array.NewRecordBatch(b.schema, arrs, int64(b.n))
	for _, a := range arrs {
		a.Release()
	}
	b.n = 0
	return rec
}

func (b *builder) release() {
	for _, ab := range b.all {
		ab.Release()
	}
}
