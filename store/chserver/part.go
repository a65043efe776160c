package chserver

import (
	"context"
	"fmt"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// part is a batch on one of the driver's connections: each appended
// record goes to the server as a block at once (Flush), so the client
// keeps none of it; the server squashes the blocks (arrowstore.PartSettings)
// and writes them as one part when the batch is sent.
type part struct {
	s     *Store
	table string
	sql   string
	sc    *arrow.Schema
	batch driver.Batch
	done  bool
}

var _ arrowstore.PartWriter = (*part)(nil)

// OpenPart implements arrowstore.Store.
func (s *Store) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	sql, err := insertSQL(table, sc)
	if err != nil {
		return nil, err
	}
	batch, err := s.conn.PrepareBatch(partContext(ctx), sql)
	if err != nil {
		return nil, s.queryError(sql, err)
	}
	return &part{s: s, table: table, sql: sql, sc: sc, batch: batch}, nil
}

// partContext is queryContext with arrowstore.PartSettings.
func partContext(ctx context.Context) context.Context {
	return clickhouse.Context(queryContext(ctx, nil), clickhouse.WithSettings(partSettings()))
}

func partSettings() clickhouse.Settings {
	set := clickhouse.Settings{}
	for k, v := range arrowstore.PartSettings() {
		set[k] = v
	}
	return set
}

// Append implements arrowstore.PartWriter; a failed append aborts the part.
func (p *part) Append(rec arrow.RecordBatch) error {
	if p.done {
		return arrowstore.ErrPartDone
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if !rec.Schema().Equal(p.sc) {
		p.abort()
		return fmt.Errorf("insert into %s: record schema %s differs from the part's %s", p.table, rec.Schema(), p.sc)
	}
	cols, err := recordColumns(p.table, rec)
	if err == nil {
		err = appendColumns(p.batch, p.table, p.sc, cols)
	}
	if err == nil {
		if ferr := p.batch.Flush(); ferr != nil {
			err = p.s.queryError(p.sql, ferr)
		}
	}
	if err != nil {
		p.abort()
	}
	return err
}

// Commit implements arrowstore.PartWriter.
func (p *part) Commit() error {
	if p.done {
		return arrowstore.ErrPartDone
	}
	p.done = true
	if err := p.batch.Send(); err != nil {
		return p.s.queryError(p.sql, err)
	}
	return nil
}

// Abort implements arrowstore.PartWriter.
func (p *part) Abort() error {
	if !p.done {
		p.abort()
	}
	return nil
}

func (p *part) abort() {
	p.done = true
	_ = p.batch.Abort()
}
