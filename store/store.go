// Package store is the SQL side of both ClickHouse engines, the embedded
// chDB engine (store/chdb) and a ClickHouse server or cluster
// (store/chserver): statements, their parameters and decoded results.
// Everything above it speaks one SQL dialect and one schema. It has no
// Arrow in it, so the packages that only read link none; the engines'
// Arrow inserts are store/arrowstore's.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Params are values for server-side {name:Type} placeholders, as the plain
// text of the value (a String param is the raw string, a UInt64 its digits);
// each engine applies the escaping its protocol needs. Every value that comes
// from a user goes through Params, never into SQL text.
type Params map[string]string

// DefaultSettings are the ClickHouse settings both engines apply to every
// statement unless the caller sets them otherwise.
//
// optimize_on_insert=0: every table here is a ReplacingMergeTree whose
// readers already fold duplicates (FINAL, argMax, LIMIT 1 BY), since the
// same row can arrive in two inserts; collapsing duplicates inside each
// inserted block as well only re-runs the merge over every row written,
// and measured on the compressed tables it halved the insert rate
// (docs/performance.md, Ingest).
//
// parallel_view_processing=1: an insert into compressed_accounts also
// writes four materialized views; one after the other they made that insert
// the longest of an ingest chunk by far, with the other insert stream idle
// while it ran. In parallel they use that idle core and the insert rate
// rises (4M-account bench, docs/performance.md, Ingest).
func DefaultSettings() map[string]string {
	return map[string]string{"optimize_on_insert": "0", "parallel_view_processing": "1"}
}

// WithDefaults returns settings over DefaultSettings: a key in settings
// wins.
func WithDefaults(settings map[string]string) map[string]string {
	out := DefaultSettings()
	for k, v := range settings {
		out[k] = v
	}
	return out
}

// Column names one result column and its ClickHouse type, e.g. "Nullable(UInt64)".
type Column struct {
	Name string
	Type string
}

// Result is a fully decoded query result.
//
// Values are Go natives, identical for both engines:
// UInt8/16/32/64 → uint8/16/32/64, Int8..Int64 → int8..int64,
// Float32/64 → float32/64, Bool → bool, String and FixedString(N) → string
// (raw bytes), Date/DateTime/DateTime64 → time.Time (UTC), Nullable(T) → nil or
// the T value, LowCardinality(T) → the T value, Array(T) → []any,
// UInt128/Int128/UInt256 → *big.Int.
type Result struct {
	Columns []Column
	Rows    [][]any
}

// Col returns the index of the column named name, or -1.
func (r *Result) Col(name string) int {
	for i, c := range r.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Querier runs statements that return rows: all the read paths need.
// Implementations are safe for concurrent use.
type Querier interface {
	// Query runs one statement and returns its rows decoded.
	Query(ctx context.Context, sql string, params Params) (*Result, error)
}

// Execer runs statements that return no rows.
type Execer interface {
	// Exec runs one statement that returns no rows (DDL, INSERT ... SELECT, ...).
	Exec(ctx context.Context, sql string, params Params) error
}

// ExecQuerier runs statements of both kinds, without Arrow inserts: the
// migrations and the API key admin write through it.
type ExecQuerier interface {
	Execer
	Querier
}

// RawQuerier is a store that also returns a statement's output as the
// engine formats it (RowBinary, JSONEachRow, ...), undecoded and whole:
// the embedded engine is one. Readers of large binary results use it
// where a store has it, and a decoded Query elsewhere.
type RawQuerier interface {
	QueryRaw(ctx context.Context, sql string, params Params, format string) ([]byte, error)
}

// ErrClosed is returned by a store used after Close.
var ErrClosed = errors.New("store is closed")

// QueryError is a statement the engine rejected. Msg is the engine's text.
type QueryError struct {
	SQL string
	Msg string
}

func (e *QueryError) Error() string {
	sql := e.SQL
	if len(sql) > 200 {
		sql = sql[:200] + "…"
	}
	return fmt.Sprintf("query failed: %s (query: %s)", e.Msg, sql)
}

// EscapeParam writes v in ClickHouse's escaped text form, which is how both
// engines parse a parameter value: a raw backslash would start an escape
// sequence and a raw tab or newline would end the value early.
func EscapeParam(v string) string {
	if !strings.ContainsAny(v, "\\\t\n\r\x00") {
		return v
	}
	var b strings.Builder
	b.Grow(len(v) + 8)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
