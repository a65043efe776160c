package chdb_test

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chdb"
)

var partSchema = arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Uint64}, {Name: "h", Type: &arrow.FixedSizeBinaryType{ByteWidth: 32}}}, nil)

// partRecord has rows k = from, from+1, ... of n.
func partRecord(from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, partSchema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Uint64Builder).Append(uint64(i))
		var h [32]byte
		binary.LittleEndian.PutUint64(h[:], uint64(i)*0x9e3779b97f4a7c15)
		b.Field(1).(*array.FixedSizeBinaryBuilder).Append(h[:])
	}
	return b.NewRecordBatch()
}

func partTable(t *testing.T, db *chdb.DB, name string) {
	t.Helper()
	if err := db.Exec(context.Background(), "CREATE TABLE "+name+" (k UInt64, h FixedString(32)) ENGINE = MergeTree ORDER BY h SETTINGS merge_selector_base = 1000", nil); err != nil {
		t.Fatal(err)
	}
}

// stored counts name's rows, the sum of k and its active parts.
func stored(t *testing.T, db *chdb.DB, name string) (rows, sum, parts uint64) {
	t.Helper()
	ctx := context.Background()
	r, err := db.Query(ctx, "SELECT count(), sum(k) FROM "+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.Query(ctx, "SELECT count() FROM system.parts WHERE active AND database = currentDatabase() AND table = {t:String}", store.Params{"t": name})
	if err != nil {
		t.Fatal(err)
	}
	return r.Rows[0][0].(uint64), r.Rows[0][1].(uint64), p.Rows[0][0].(uint64)
}

func appendAll(t *testing.T, w arrowstore.PartWriter, recs ...arrow.RecordBatch) {
	t.Helper()
	for _, rec := range recs {
		err := w.Append(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestPartCommitsOnePart appends records of several sizes, 1.5M rows in
// all, and checks that nothing is visible before Commit and every row
// after it, in one part.
func TestPartCommitsOnePart(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	defer db.Close()
	partTable(t, db, "p")
	w, err := db.OpenPart(ctx, "p", partSchema)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{1, 500_000, 0, 500_000, 500_000, 3}
	from, want := 0, uint64(0)
	for _, n := range sizes {
		appendAll(t, w, partRecord(from, n))
		for i := from; i < from+n; i++ {
			want += uint64(i)
		}
		from += n
	}
	if rows, _, _ := stored(t, db, "p"); rows != 0 {
		t.Fatalf("%d rows visible before Commit", rows)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, sum, parts := stored(t, db, "p")
	if rows != uint64(from) || sum != want || parts != 1 {
		t.Fatalf("stored %d rows (sum %d) in %d parts, want %d rows (sum %d) in 1", rows, sum, parts, from, want)
	}
	if err := w.Append(partRecord(0, 1)); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("append after commit: %v", err)
	}
	if err := w.Commit(); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("commit after commit: %v", err)
	}
	if err := w.Abort(); err != nil {
		t.Fatalf("abort after commit: %v", err)
	}
}

// TestPartAbortStoresNothing: an aborted part, a part whose append fails
// (a record of another schema) and a part left open at Close store
// nothing, and the store goes on working after the first two.
func TestPartAbortStoresNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, dir)
	partTable(t, db, "p")

	w, err := db.OpenPart(ctx, "p", partSchema)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, partRecord(0, 1000))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("commit after abort: %v", err)
	}

	w, err = db.OpenPart(ctx, "p", partSchema)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, partRecord(0, 10))
	other := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Uint64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, other)
	b.Field(0).(*array.Uint64Builder).Append(1)
	rec := b.NewRecordBatch()
	b.Release()
	err = w.Append(rec)
	rec.Release()
	if err == nil {
		t.Fatal("a record of another schema was taken")
	}
	if err := w.Commit(); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("commit after a failed append: %v", err)
	}
	if rows, _, _ := stored(t, db, "p"); rows != 0 {
		t.Fatalf("%d rows stored", rows)
	}

	// Left open at Close: Close ends it, and it takes nothing more.
	w, err = db.OpenPart(ctx, "p", partSchema)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, partRecord(0, 10))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("commit after Close: %v", err)
	}
	if _, err := db.OpenPart(ctx, "p", partSchema); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("open after Close: %v", err)
	}
	db = openDB(t, dir)
	defer db.Close()
	if rows, _, _ := stored(t, db, "p"); rows != 0 {
		t.Fatalf("%d rows stored", rows)
	}
}

// TestPartsBesideThePool: open parts hold connections of their own, so
// more parts than the pool has connections stay open while queries run,
// and parts of one table commit in the order asked.
func TestPartsBesideThePool(t *testing.T) {
	ctx := context.Background()
	db, err := chdb.Open(ctx, t.TempDir(), chdb.Options{PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	partTable(t, db, "p")
	var ws []arrowstore.PartWriter
	for i := range 3 {
		w, err := db.OpenPart(ctx, "p", partSchema)
		if err != nil {
			t.Fatal(err)
		}
		appendAll(t, w, partRecord(i*100, 100))
		ws = append(ws, w)
	}
	if rows, _, _ := stored(t, db, "p"); rows != 0 {
		t.Fatalf("%d rows visible", rows)
	}
	for _, w := range ws {
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if rows, sum, parts := stored(t, db, "p"); rows != 300 || sum != 299*300/2 || parts != 3 {
		t.Fatalf("stored %d rows (sum %d) in %d parts", rows, sum, parts)
	}
}

// TestPartBadTable: a part into a missing table fails at open, clearly.
func TestPartBadTable(t *testing.T) {
	db := openDB(t, t.TempDir())
	defer db.Close()
	_, err := db.OpenPart(context.Background(), "missing", partSchema)
	var qe *store.QueryError
	if !errors.As(err, &qe) || !strings.Contains(qe.Msg, "missing") {
		t.Fatalf("err = %v", err)
	}
}
