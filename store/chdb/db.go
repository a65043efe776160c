// Package chdb is the embedded ClickHouse engine: a thin binding to
// libchdb.so (loaded with dlopen at run time, so builds do not need it) that
// implements arrowstore.Store with a connection pool, server-side query
// parameters, RowBinary result decoding and Arrow stream inserts.
package chdb

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/rowbinary"
)

// Options tune an embedded store.
type Options struct {
	// LibPath is libchdb.so; empty means DefaultLibPath().
	LibPath string
	// PoolSize is the number of engine connections; a connection runs one
	// statement at a time. Zero means max(4, 2*NumCPU).
	PoolSize int
	// Settings are ClickHouse query-level settings applied to every
	// connection (e.g. "use_query_condition_cache": "0"), over
	// store.DefaultSettings.
	Settings map[string]string
	// Allocator are the options of the engine's memory allocator (jemalloc,
	// inside the library), taken when the library loads: the first Open in
	// a process. Empty means DefaultAllocator; "-" keeps the library's own.
	// A JE_MALLOC_CONF in the environment wins over both.
	Allocator string
	Logger    *slog.Logger
	// ReadOnly opens the directory for reading only: every table refuses
	// writes and the engine runs no merges or mutations on it, so a
	// snapshot or backup is read as it is. Any number of read-only
	// processes may share a directory, but not with a writer. A directory
	// this process cannot write is opened read-only whatever this says.
	ReadOnly bool
}

// DB is an embedded ClickHouse engine on one data directory.
type DB struct {
	dir    string
	pool   chan *conn
	all    []*conn
	lock   *os.File
	log    *slog.Logger
	mu     sync.RWMutex // closed is guarded; held shared by every call in flight
	closed bool
	piece  int // largest piece of an insert's input handed over at once
	// args connect a part's own connection (see OpenPart) as the pool's
	// were; parts are the open ones, which Close aborts.
	args    []string
	partsMu sync.Mutex
	parts   map[*part]struct{}
	// readOnly: opened read-only, the engine running on scratch.
	readOnly bool
	scratch  string
}

type conn struct{ c *C.chdb_connection }

var (
	_ arrowstore.Store = (*DB)(nil)
	_ store.RawQuerier = (*DB)(nil)
)

// ErrLocked marks a data directory held by another process.
var ErrLocked = errors.New("data directory is in use")

// Open starts the engine on dir (created if missing). One data directory per
// process: opening another while one is open fails, and so does a directory
// locked by another process.
func Open(ctx context.Context, dir string, opts Options) (*DB, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("embedded store %s: %w", dir, err)
	}
	if opts.LibPath == "" {
		opts.LibPath = DefaultLibPath()
	}
	if opts.PoolSize <= 0 {
		opts.PoolSize = max(4, 2*runtime.NumCPU())
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}

	engine.mu.Lock()
	defer engine.mu.Unlock()
	if engine.shutdown {
		return nil, errors.New("embedded engine: already shut down in this process")
	}
	if engine.dir != "" {
		return nil, fmt.Errorf("embedded engine: %s is already open in this process (one data directory per process)", engine.dir)
	}
	if err := loadLocked(opts.LibPath, opts.Allocator); err != nil {
		return nil, err
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(abs, 0o755); err != nil && !errors.Is(err, syscall.EROFS) && !errors.Is(err, syscall.EACCES) {
			return nil, fmt.Errorf("embedded store: create %s: %w", abs, err)
		}
	}
	lock, readOnly, err := lockDir(abs, opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	if readOnly && !opts.ReadOnly {
		opts.Logger.Info("embedded store opened read-only: the directory is not writable", "dir", abs)
	}
	db := &DB{dir: abs, pool: make(chan *conn, opts.PoolSize), lock: lock, log: opts.Logger, piece: appendPiece, readOnly: readOnly}
	args := []string{"dasch", "--path=" + abs}
	if readOnly {
		scratch, err := readOnlyPath(abs)
		if err != nil {
			db.release()
			return nil, err
		}
		db.scratch = scratch
		args = []string{"dasch", "--path=" + scratch, "--config-file=" + filepath.Join(scratch, "readonly.xml")}
	}
	settings := store.WithDefaults(opts.Settings)
	if readOnly {
		// Statements that write are refused before they reach a table;
		// settings may still change.
		settings["readonly"] = "2"
	}
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		args = append(args, "--"+k+"="+settings[k])
	}
	// Connects are serialized by engine.mu: the engine boots on the first.
	for i := 0; i < opts.PoolSize; i++ {
		argv, free := cArgs(args)
		c := C.dasch_connect(C.int(len(args)), argv)
		free()
		if c == nil {
			db.closeConnsLocked()
			db.release()
			return nil, fmt.Errorf("embedded engine: cannot open %s (connection %d of %d refused; is another process using it, or are the settings valid?)", abs, i+1, opts.PoolSize)
		}
		cn := &conn{c: c}
		db.all = append(db.all, cn)
		db.pool <- cn
	}
	engine.dir = abs
	db.args, db.parts = args, map[*part]struct{}{}
	return db, nil
}

// lockDir takes an advisory lock so a second process gets a clear error
// instead of the engine's own failure deep inside connect: exclusive for
// a writer, shared for readers. A directory whose lock file cannot be
// opened for writing is read-only to this process: it is locked shared
// through a read-only descriptor if the file exists, else not at all (no
// writer can run there without making it). It reports whether the
// directory is to be opened read-only.
func lockDir(dir string, readOnly bool) (*os.File, bool, error) {
	path := filepath.Join(dir, ".dasch.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		if !errors.Is(err, syscall.EROFS) && !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.EPERM) {
			return nil, false, fmt.Errorf("embedded store: open lock %s: %w", path, err)
		}
		if _, serr := os.Stat(dir); serr != nil {
			return nil, false, fmt.Errorf("embedded store: %w", serr)
		}
		readOnly = true
		if f, err = os.Open(path); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, true, nil
			}
			return nil, false, fmt.Errorf("embedded store: open lock %s: %w", path, err)
		}
	}
	how := syscall.LOCK_EX
	if readOnly {
		how = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		pid, _ := os.ReadFile(path)
		f.Close()
		holder := strings.TrimSpace(string(pid))
		if holder == "" {
			holder = "unknown"
		}
		if readOnly {
			return nil, false, fmt.Errorf("%w: %s is being written by another process (pid %s); a read-only open needs no writer on it", ErrLocked, dir, holder)
		}
		return nil, false, fmt.Errorf("%w: %s is locked by another process (pid %s): stop it (one process per data directory, or any number opened read-only) or use another directory", ErrLocked, dir, holder)
	}
	if !readOnly {
		_ = f.Truncate(0)
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, readOnly, nil
}

// release drops the directory lock and a read-only open's scratch path.
func (db *DB) release() error {
	if db.scratch != "" {
		os.RemoveAll(db.scratch)
	}
	if db.lock == nil {
		return nil
	}
	return db.lock.Close()
}

// ReadOnly reports whether the store was opened read-only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// Dir is the data directory.
func (db *DB) Dir() string { return db.dir }

// Engine implements arrowstore.Store.
func (db *DB) Engine() string { return "embedded" }

// Close closes every connection and releases the directory. Calls in flight
// finish first.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil
	}
	db.closed = true
	// No call is in flight: each holds mu shared.
	db.partsMu.Lock()
	for p := range db.parts {
		p.end(true)
	}
	clear(db.parts)
	db.partsMu.Unlock()
	engine.mu.Lock()
	defer engine.mu.Unlock()
	db.closeConnsLocked()
	engine.dir = ""
	return db.release()
}

func (db *DB) closeConnsLocked() {
	for _, c := range db.all {
		C.dasch_close_conn(c.c)
	}
	db.all = nil
}

// acquire takes a pooled connection, honouring ctx while waiting. The read
// lock keeps Close from tearing connections down under a running call.
// release hands the connection back; given the engine's error of the
// statement it ran, it hands back a fresh connection instead (see renew).
func (db *DB) acquire(ctx context.Context) (*conn, func(error), error) {
	db.mu.RLock()
	if db.closed {
		db.mu.RUnlock()
		return nil, nil, store.ErrClosed
	}
	select {
	case c := <-db.pool:
		return c, func(err error) {
			var qe *store.QueryError
			if errors.As(err, &qe) {
				c = db.renew(c)
			}
			db.pool <- c
			db.mu.RUnlock()
		}, nil
	case <-ctx.Done():
		db.mu.RUnlock()
		return nil, nil, ctx.Err()
	}
}

// renew replaces a connection whose statement failed. A statement that
// fails after its output began (RowBinary's header is written before the
// first block) leaves that output on the connection, and the next
// statement's answer comes after it: decoded, it is an error at best and
// other columns' data at worst. If no new connection can be had, the old
// one stays, after a statement that takes what was left.
func (db *DB) renew(old *conn) *conn {
	engine.mu.Lock()
	defer engine.mu.Unlock()
	argv, free := cArgs(db.args)
	c := C.dasch_connect(C.int(len(db.args)), argv)
	free()
	if c == nil {
		db.log.Warn("embedded engine: cannot renew a connection after a failed statement; draining it instead")
		_, _ = db.runOn(old, "SELECT 1", nil, "RowBinary", nil)
		return old
	}
	C.dasch_close_conn(old.c)
	n := &conn{c: c}
	for i, x := range db.all {
		if x == old {
			db.all[i] = n
		}
	}
	return n
}

// run executes sql with params in format and hands the raw output to use
// while the engine's buffer is alive. A call whose ctx ends returns at once;
// the statement finishes on its connection in the background.
func (db *DB) run(ctx context.Context, sql string, params store.Params, format string, use func([]byte) (any, error)) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, release, err := db.acquire(ctx)
	if err != nil {
		return nil, err
	}
	type outcome struct {
		v   any
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := db.runOn(c, sql, params, format, use)
		release(err)
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		return o.v, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (db *DB) runOn(c *conn, sql string, params store.Params, format string, use func([]byte) (any, error)) (any, error) {
	n := len(params)
	var names, vals **C.char
	var nameLens, valLens *C.size_t
	if n > 0 {
		// One C block holds the four arrays; the strings point into Go-owned
		// copies made with C.CBytes so cgo pointer rules hold.
		ptrSz := C.size_t(unsafe.Sizeof(uintptr(0)))
		block := C.malloc(C.size_t(n) * (2*ptrSz + 2*C.size_t(unsafe.Sizeof(C.size_t(0)))))
		defer C.free(block)
		ns := unsafe.Slice((**C.char)(block), n)
		vs := unsafe.Slice((**C.char)(unsafe.Add(block, uintptr(n)*uintptr(ptrSz))), n)
		nl := unsafe.Slice((*C.size_t)(unsafe.Add(block, 2*uintptr(n)*uintptr(ptrSz))), n)
		vl := unsafe.Slice((*C.size_t)(unsafe.Add(block, 2*uintptr(n)*uintptr(ptrSz)+uintptr(n)*unsafe.Sizeof(C.size_t(0)))), n)
		i := 0
		for k, v := range params {
			ns[i] = C.CString(k)
			ev := store.EscapeParam(v)
			vs[i] = (*C.char)(C.CBytes(append([]byte(ev), 0)))
			nl[i] = C.size_t(len(k))
			vl[i] = C.size_t(len(ev))
			i++
		}
		defer func() {
			for j := 0; j < n; j++ {
				C.free(unsafe.Pointer(ns[j]))
				C.free(unsafe.Pointer(vs[j]))
			}
		}()
		names, vals = &ns[0], &vs[0]
		nameLens, valLens = &nl[0], &vl[0]
	}
	q := C.CString(sql)
	defer C.free(unsafe.Pointer(q))
	f := C.CString(format)
	defer C.free(unsafe.Pointer(f))
	res := C.dasch_query(c.c, q, C.size_t(len(sql)), f, C.size_t(len(format)), names, nameLens, vals, valLens, C.size_t(n))
	if res == nil {
		return nil, &store.QueryError{SQL: sql, Msg: "engine returned no result"}
	}
	defer C.dasch_destroy_result(res)
	if e := C.dasch_result_error(res); e != nil {
		if msg := C.GoString(e); msg != "" {
			return nil, &store.QueryError{SQL: sql, Msg: cleanMsg(msg)}
		}
	}
	if use == nil {
		return nil, nil
	}
	buf := C.dasch_result_buffer(res)
	ln := C.dasch_result_length(res)
	var out []byte
	if buf != nil && ln > 0 {
		out = unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(ln))
	}
	return use(out)
}

// cleanMsg keeps the engine's first line: the rest is a stack trace.
func cleanMsg(msg string) string {
	msg = strings.TrimSpace(msg)
	if i := strings.Index(msg, "\n"); i > 0 {
		msg = msg[:i]
	}
	return msg
}

// Exec implements arrowstore.Store.
func (db *DB) Exec(ctx context.Context, sql string, params store.Params) error {
	_, err := db.run(ctx, sql, params, "Null", nil)
	return err
}

// Query implements arrowstore.Store. Results travel as RowBinaryWithNamesAndTypes:
// binary, typed, and decoded without an intermediate text form.
func (db *DB) Query(ctx context.Context, sql string, params store.Params) (*store.Result, error) {
	v, err := db.run(ctx, sql, params, "RowBinaryWithNamesAndTypes", func(b []byte) (any, error) {
		res, err := rowbinary.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("decode result of %q: %w", abbrev(sql), err)
		}
		return res, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*store.Result), nil
}

// QueryRaw runs sql and returns the output in any ClickHouse format
// (JSONEachRow, ArrowStream, PrettyCompact, ...), copied out of the engine.
func (db *DB) QueryRaw(ctx context.Context, sql string, params store.Params, format string) ([]byte, error) {
	v, err := db.run(ctx, sql, params, format, func(b []byte) (any, error) {
		return append([]byte(nil), b...), nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

// Insert implements arrowstore.Store: the record is encoded as an Arrow IPC
// stream straight into a streaming INSERT, a piece at a time (see
// appender), so no copy of the whole encoded record is made on this side.
func (db *DB) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	ins, err := insertSQL(table, rec.Schema())
	if err != nil {
		return err
	}
	return db.stream(ctx, ins, "ArrowStream", func(w io.Writer) error {
		iw := ipc.NewWriter(w, ipc.WithSchema(rec.Schema()))
		if err := iw.Write(rec); err != nil {
			return fmt.Errorf("insert into %s: encode arrow: %w", table, err)
		}
		if err := iw.Close(); err != nil {
			return fmt.Errorf("insert into %s: encode arrow: %w", table, err)
		}
		return nil
	})
}

// InsertStream sends data in format to an INSERT statement without a FORMAT
// clause, e.g. "INSERT INTO t (a, b)".
func (db *DB) InsertStream(ctx context.Context, insert, format string, data []byte) error {
	return db.stream(ctx, insert, format, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// stream runs one streaming INSERT, fed by write. If write fails the
// insert is cancelled, so nothing of a half-sent input is stored.
func (db *DB) stream(ctx context.Context, insert, format string, write func(io.Writer) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	c, release, err := db.acquire(ctx)
	if err != nil {
		return err
	}
	defer func() { release(err) }() // err is the result
	s, err := openStream(c.c, insert, format)
	if err != nil {
		return err
	}
	defer C.dasch_destroy_insert_stream(s)
	a := &appender{s: s, sql: insert, piece: db.piece}
	err = write(a)
	if err == nil {
		err = a.flush()
	}
	if err != nil {
		C.dasch_stream_cancel_insert(s)
		return err
	}
	return finishStream(s, insert)
}

// openStream starts a streaming INSERT on c; the caller destroys the
// stream when done with it.
func openStream(c *C.chdb_connection, insert, format string) (C.chdb_insert_stream, error) {
	q := C.CString(insert)
	defer C.free(unsafe.Pointer(q))
	f := C.CString(format)
	defer C.free(unsafe.Pointer(f))
	s := C.dasch_stream_insert(c, q, C.size_t(len(insert)), f, C.size_t(len(format)))
	if s == nil {
		return nil, &store.QueryError{SQL: insert, Msg: "engine refused the insert stream"}
	}
	if e := C.dasch_stream_insert_error(s); e != nil {
		msg := cleanMsg(C.GoString(e))
		C.dasch_destroy_insert_stream(s)
		return nil, &store.QueryError{SQL: insert, Msg: msg}
	}
	return s, nil
}

// finishStream ends a stream whose input is all appended and returns the
// engine's verdict on the insert; the result is freed before it returns,
// so before the caller destroys the stream.
func finishStream(s C.chdb_insert_stream, insert string) error {
	res := C.dasch_stream_done(s)
	if res == nil {
		return &store.QueryError{SQL: insert, Msg: "engine returned no result"}
	}
	defer C.dasch_destroy_result(res)
	if e := C.dasch_result_error(res); e != nil {
		if msg := C.GoString(e); msg != "" {
			return &store.QueryError{SQL: insert, Msg: cleanMsg(msg)}
		}
	}
	return nil
}

// The engine copies every appended piece into its queue and parses it on
// its own thread while the next piece is encoded. Whole records in one
// piece cost an allocation of the record's size on both sides, fresh pages
// each time for the large ones; pieces of at most appendPiece bytes reuse
// the allocator's memory. Small writes (IPC headers, padding) are gathered
// to appendBuffer first, in a buffer that grows to it only when the input
// does: a small insert allocates what it sends, not appendBuffer.
const (
	appendBuffer = 256 << 10
	appendPiece  = 4 << 20
)

// appender is the io.Writer an insert's input is written to.
type appender struct {
	s     C.chdb_insert_stream
	sql   string
	piece int
	buf   []byte
}

func (a *appender) Write(p []byte) (int, error) {
	n := len(p)
	if len(a.buf)+len(p) <= appendBuffer {
		a.buf = append(a.buf, p...)
		return n, nil
	}
	if err := a.flush(); err != nil {
		return 0, err
	}
	if len(p) <= appendBuffer {
		a.buf = append(a.buf, p...)
		return n, nil
	}
	for len(p) > 0 {
		k := min(len(p), a.piece)
		if err := a.send(p[:k]); err != nil {
			return 0, err
		}
		p = p[k:]
	}
	return n, nil
}

func (a *appender) flush() error {
	if len(a.buf) == 0 {
		return nil
	}
	err := a.send(a.buf)
	a.buf = a.buf[:0]
	return err
}

// send hands p to the engine, which copies it before returning: p is Go
// memory without pointers, passed for the duration of the call only.
func (a *appender) send(p []byte) error {
	if C.dasch_stream_append(a.s, unsafe.Pointer(&p[0]), C.size_t(len(p))) == 0 {
		return nil
	}
	msg := "append failed"
	if e := C.dasch_stream_insert_error(a.s); e != nil {
		msg = cleanMsg(C.GoString(e))
	}
	return &store.QueryError{SQL: a.sql, Msg: msg}
}

func insertSQL(table string, sc *arrow.Schema) (string, error) {
	if !validIdent(table) {
		return "", fmt.Errorf("insert: invalid table name %q", table)
	}
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (")
	for i, f := range sc.Fields() {
		if !validIdent(f.Name) {
			return "", fmt.Errorf("insert into %s: invalid column name %q", table, f.Name)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + f.Name + "`")
	}
	b.WriteString(")")
	return b.String(), nil
}

// validIdent accepts [db.]name made of letters, digits and underscores.
func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func abbrev(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
