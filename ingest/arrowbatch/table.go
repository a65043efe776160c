// Package arrowbatch turns rows into Arrow record batches per table and
// writes them into the store in the background, appending each table's
// batches to an open part (one INSERT) that it commits by size or age.
package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Row is one row destined for a table.
type Row interface {
	Table() string
}

// Builder accumulates the rows of one table. Each table has a small typed
// builder that appends its own row type column by column, so no reflection
// runs per row.
type Builder interface {
	// Append adds a row; it fails if the row is of another table's type.
	Append(Row) error
	// Len is the number of rows since the last NewRecord.
	Len() int
	// Size estimates the bytes appended since the last NewRecord.
	Size() int
	// NewRecord returns the rows as a record and starts a new batch.
	NewRecord() arrow.RecordBatch
	// Schema is the schema of every record NewRecord returns.
	Schema() *arrow.Schema
	Release()
}

// Table describes a table rows can be written to.
type Table struct {
	Name string
	New  func(memory.Allocator) Builder
	// AnyOrder: which of a key's rows survives does not depend on the
	// order its parts were committed in (the rows of a key are identical,
	// or the engine's version column picks one), so up to AnyOrderCommits
	// of its parts may commit at once. Otherwise they commit one after
	// another, in order.
	AnyOrder bool
}

// AnyOrderCommits is how many parts of an AnyOrder table commit at once.
// A part's commit (its sort, views and write, in one engine thread) takes
// longer than the next part takes to fill at full speed: one at a time,
// the load waits for it with a core idle.
const AnyOrderCommits = 2

// CoreTables are the tables every ingestion writes.
func CoreTables() []Table {
	return []Table{BlocksTable(), TxsTable(), AccountsTable(), DeadLettersTable()}
}

// Base is the bookkeeping every typed builder shares: it implements
// Schema, Len, Size, NewRecord and Release, leaving Append to the
// embedding builder, which appends to its columns and then calls Added.
type Base struct {
	schema *arrow.Schema
	cols   []Column
	// abs are the columns' Arrow builders, for Reserve and Release.
	abs  []array.Builder
	n    int
	size int
}

// NewBase returns a Base building records of cols, in that order.
func NewBase(cols ...Column) Base {
	b := Base{cols: cols}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.Field
		if c.ab != nil {
			b.abs = append(b.abs, c.ab)
		}
	}
	b.schema = arrow.NewSchema(fields, nil)
	return b
}

// Schema is the schema of the builder's records.
func (b *Base) Schema() *arrow.Schema { return b.schema }

// Added records one appended row of about size bytes.
func (b *Base) Added(size int) {
	b.n++
	b.size += size
}

func (b *Base) Len() int  { return b.n }
func (b *Base) Size() int { return b.size }

func (b *Base) Release() {
	for _, ab := range b.abs {
		ab.Release()
	}
}

// NewRecord returns the rows appended since the last call as a record, and
// gives the next one room for as many rows: its fixed-width columns are
// allocated once at about their final size instead of growing from empty
// by doubling, which allocates and copies about twice the batch.
func (b *Base) NewRecord() arrow.RecordBatch {
	n := b.n
	b.n, b.size = 0, 0
	arrs := make([]arrow.Array, len(b.cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, c := range b.cols {
		arrs[i] = c.Finish(n)
		if arrs[i].Len() != n {
			// An Append that missed a column or wrote one twice.
			panic(fmt.Errorf("arrowbatch: column %s has %d rows, want %d", c.Field.Name, arrs[i].Len(), n))
		}
	}
	rec := array.NewRecordBatch(b.schema, arrs, int64(n))
	for _, ab := range b.abs {
		ab.Reserve(n)
	}
	return rec
}

// PubkeyType is FixedString(32) and SignatureType FixedString(64).
func PubkeyType() arrow.DataType    { return &arrow.FixedSizeBinaryType{ByteWidth: 32} }
func SignatureType() arrow.DataType { return &arrow.FixedSizeBinaryType{ByteWidth: 64} }

// SigPrefixType is FixedString(8): a signature's first 8 bytes, which
// name a transaction together with its slot (schema.SigPrefix).
func SigPrefixType() arrow.DataType { return &arrow.FixedSizeBinaryType{ByteWidth: 8} }

// PubkeyListType is Array(FixedString(32)). Its elements are non-nullable,
// or the column would read as Array(Nullable(FixedString(32))).
func PubkeyListType() arrow.DataType { return arrow.ListOfNonNullable(PubkeyType()) }
