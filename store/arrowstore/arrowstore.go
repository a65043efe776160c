// Package arrowstore is the whole interface of a ClickHouse engine, the
// embedded chDB engine (store/chdb) or a ClickHouse server or cluster
// (store/chserver): store's statements plus Arrow inserts. Only what
// writes Arrow records or opens an engine imports it; the read paths take
// store's interfaces and link no Arrow.
package arrowstore

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dasch-labs/dasch/store"
)

// Writer is what ingest writes with: statements and Arrow inserts.
type Writer interface {
	store.ExecQuerier
	// Insert appends an Arrow record batch to table. Field names of the
	// record's schema name the table columns; omitted columns take defaults.
	Insert(ctx context.Context, table string, rec arrow.RecordBatch) error
	// OpenPart opens one INSERT into table for records of schema sc, fed
	// record by record (see PartWriter). It has a connection of its own
	// until Commit or Abort.
	OpenPart(ctx context.Context, table string, sc *arrow.Schema) (PartWriter, error)
}

// Store is one ClickHouse engine. Implementations are safe for concurrent use.
type Store interface {
	Writer
	// Engine names the engine: "embedded" or "clickhouse".
	Engine() string
	// Close releases connections. The store is unusable afterwards.
	Close() error
}

// PartWriter is one INSERT fed record after record. Its rows become
// visible together at Commit, written as one part (per partition) however
// many records were appended: a bulk load that commits every few batches
// makes a few large parts where an Insert per batch makes many small ones,
// and each row is rewritten by fewer merges on its way to a large part.
// The engine holds the appended rows until Commit, so the caller bounds a
// part's size. Abort discards everything appended. A PartWriter is used
// from one goroutine at a time and must end in Commit or Abort; after
// either, every call fails.
type PartWriter interface {
	// Append adds rec, which must have the schema the part was opened
	// with.
	Append(rec arrow.RecordBatch) error
	// Commit stores every appended row.
	Commit() error
	// Abort stores nothing. It returns nil after Commit.
	Abort() error
}

// PartSettings are the insert settings a PartWriter runs with: they lift
// the engine's squashing limits, so every appended record joins one block,
// which it writes as one part at Commit. With the defaults
// (min_insert_block_size_rows about 1M) an embedded insert of six
// 500k-row records sent at once made two parts.
func PartSettings() map[string]string {
	const unbounded = "1000000000000"
	return map[string]string{
		"min_insert_block_size_rows":  unbounded,
		"min_insert_block_size_bytes": unbounded,
		"max_insert_block_size":       unbounded,
	}
}

// ErrPartDone is returned by a PartWriter used after Commit or Abort.
var ErrPartDone = errors.New("part already committed or aborted")
