package chdb

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// part is an open streaming INSERT on a connection of its own: a part
// open for the length of a bulk load must not take one of the pool's,
// which the load's own queries need (a connection is cheap to open,
// docs/performance.md).
// Its calls take db.mu shared, as every call does, so Close, which takes
// it exclusively, aborts only parts between calls.
type part struct {
	db    *DB
	table string
	sql   string
	c     *C.chdb_connection
	s     C.chdb_insert_stream
	a     *appender
	iw    *ipc.Writer
	done  bool
}

var _ arrowstore.PartWriter = (*part)(nil)

// OpenPart implements arrowstore.Store.
func (db *DB) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ins, err := insertSQL(table, sc)
	if err != nil {
		return nil, err
	}
	settings := arrowstore.PartSettings()
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		sep := ", "
		if i == 0 {
			sep = " SETTINGS "
		}
		ins += sep + k + " = " + settings[k]
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.closed {
		return nil, store.ErrClosed
	}
	argv, free := cArgs(db.args)
	engine.mu.Lock()
	c := C.dasch_connect(C.int(len(db.args)), argv)
	engine.mu.Unlock()
	free()
	if c == nil {
		return nil, fmt.Errorf("insert into %s: embedded engine refused a connection", table)
	}
	st, err := openStream(c, ins, "ArrowStream")
	if err != nil {
		C.dasch_close_conn(c)
		return nil, err
	}
	p := &part{db: db, table: table, sql: ins, c: c, s: st}
	p.a = &appender{s: p.s, sql: ins, piece: db.piece}
	p.iw = ipc.NewWriter(p.a, ipc.WithSchema(sc))
	db.partsMu.Lock()
	db.parts[p] = struct{}{}
	db.partsMu.Unlock()
	return p, nil
}

// Append implements arrowstore.PartWriter. A failed append aborts the part:
// the engine's stream cannot take more after an error.
func (p *part) Append(rec arrow.RecordBatch) error {
	p.db.mu.RLock()
	defer p.db.mu.RUnlock()
	if p.done {
		return arrowstore.ErrPartDone
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if err := p.iw.Write(rec); err != nil {
		p.close(true)
		return fmt.Errorf("insert into %s: %w", p.table, err)
	}
	return nil
}

// Commit implements arrowstore.PartWriter.
func (p *part) Commit() error {
	p.db.mu.RLock()
	defer p.db.mu.RUnlock()
	if p.done {
		return arrowstore.ErrPartDone
	}
	err := p.iw.Close()
	if err == nil {
		err = p.a.flush()
	}
	if err != nil {
		p.close(true)
		return fmt.Errorf("insert into %s: %w", p.table, err)
	}
	// finishStream frees the engine's result before close destroys the
	// stream and closes the connection it came from.
	defer p.close(false)
	return finishStream(p.s, p.sql)
}

// Abort implements arrowstore.PartWriter.
func (p *part) Abort() error {
	p.db.mu.RLock()
	defer p.db.mu.RUnlock()
	if !p.done {
		p.close(true)
	}
	return nil
}

// close ends p (see end) and forgets it.
func (p *part) close(cancel bool) {
	p.end(cancel)
	p.db.partsMu.Lock()
	delete(p.db.parts, p)
	p.db.partsMu.Unlock()
}

// end cancels the insert if asked, then destroys the stream and closes
// the connection.
func (p *part) end(cancel bool) {
	if cancel {
		C.dasch_stream_cancel_insert(p.s)
	}
	p.done = true
	C.dasch_destroy_insert_stream(p.s)
	C.dasch_close_conn(p.c)
}
