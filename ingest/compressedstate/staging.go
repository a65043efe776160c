package compressedstate

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// sessionWriter runs the step's statements on its session's staging
// tables (schema.SessionSQL): the statements name the shared templates,
// and every statement and insert is rewritten on its way to the store.
type sessionWriter struct {
	arrowstore.Writer
	session string
}

func (w sessionWriter) Exec(ctx context.Context, sql string, params store.Params) error {
	return w.Writer.Exec(ctx, schema.SessionSQL(sql, w.session), params)
}

func (w sessionWriter) Query(ctx context.Context, sql string, params store.Params) (*store.Result, error) {
	return w.Writer.Query(ctx, schema.SessionSQL(sql, w.session), params)
}

func (w sessionWriter) Insert(ctx context.Context, table string, rec arrow.RecordBatch) error {
	return w.Writer.Insert(ctx, schema.SessionSQL(table, w.session), rec)
}

func (w sessionWriter) OpenPart(ctx context.Context, table string, sc *arrow.Schema) (arrowstore.PartWriter, error) {
	return w.Writer.OpenPart(ctx, schema.SessionSQL(table, w.session), sc)
}

// rawSessionWriter is a sessionWriter on a store that also answers raw
// queries (store.RawQuerier), which readDeltas prefers.
type rawSessionWriter struct {
	sessionWriter
	raw store.RawQuerier
}

func (w rawSessionWriter) QueryRaw(ctx context.Context, sql string, params store.Params, format string) ([]byte, error) {
	return w.raw.QueryRaw(ctx, schema.SessionSQL(sql, w.session), params, format)
}

// stage makes the session's staging tables unless made already, and
// returns s writing to them. After a failed step they are made again
// (IF NOT EXISTS): a server restarted under the session lost them.
func (st *StateStep) stage(ctx context.Context, s arrowstore.Writer) (arrowstore.Writer, error) {
	if !st.staged {
		for _, q := range schema.CreateSession(st.session) {
			if err := s.Exec(ctx, q, nil); err != nil {
				return nil, fmt.Errorf("make staging tables: %w", err)
			}
		}
		st.staged, st.made = true, true
	}
	w := sessionWriter{Writer: s, session: st.session}
	if rq, ok := s.(store.RawQuerier); ok {
		return rawSessionWriter{sessionWriter: w, raw: rq}, nil
	}
	return w, nil
}

// Close implements ingest.StepCloser: it drops the session's staging
// tables. A later Apply makes them again.
func (st *StateStep) Close(ctx context.Context, s arrowstore.Writer) error {
	if !st.made {
		return nil
	}
	st.staged, st.made = false, false
	for _, q := range schema.DropSession(st.session) {
		if err := s.Exec(ctx, q, nil); err != nil {
			return fmt.Errorf("compressed: drop staging tables: %w", err)
		}
	}
	return nil
}
