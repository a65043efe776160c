package chdb

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func openInternal(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(context.Background(), tb.TempDir(), Options{PoolSize: 2})
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// TestStreamPieces sends one value through every path of the appender
// (gathered small writes, a flush before a large write, a large write cut
// into pieces) and checks the engine received exactly those bytes.
func TestStreamPieces(t *testing.T) {
	ctx := context.Background()
	db := openInternal(t)
	db.piece = 1000 // small pieces, so a few KB cross every boundary
	if err := db.Exec(ctx, "CREATE TABLE blobs (b String) ENGINE = Memory", nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		writes []int
	}{
		{"one byte", []int{1}},
		{"fills the buffer", []int{appendBuffer}},
		{"one over the buffer", []int{appendBuffer, 1}},
		{"small then large", []int{3, 17, 2500}},
		{"large then small", []int{appendBuffer + 1, 5, appendBuffer - 5, 1}},
		{"exact pieces", []int{1000, 2000, appendBuffer * 3}},
		{"many small", []int{100, 100, 100, 100, 100, 100, 100, 100, 100, 100}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var all []byte
			for k, n := range tc.writes {
				for j := 0; j < n; j++ {
					all = append(all, byte(31*j+7*k+i))
				}
			}
			if err := db.Exec(ctx, "TRUNCATE TABLE blobs", nil); err != nil {
				t.Fatal(err)
			}
			err := db.stream(ctx, "INSERT INTO blobs", "RawBLOB", func(w io.Writer) error {
				rest := all
				for _, n := range tc.writes {
					if m, err := w.Write(rest[:n]); err != nil || m != n {
						return fmt.Errorf("write %d: %d, %v", n, m, err)
					}
					rest = rest[n:]
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := db.Query(ctx, "SELECT toUInt64(length(b)), hex(MD5(b)) FROM blobs", nil)
			if err != nil {
				t.Fatal(err)
			}
			sum := md5.Sum(all)
			if len(res.Rows) != 1 {
				t.Fatalf("%d rows, want 1", len(res.Rows))
			}
			if got, want := res.Rows[0][0].(uint64), uint64(len(all)); got != want {
				t.Fatalf("engine got %d bytes, want %d", got, want)
			}
			if got, want := res.Rows[0][1].(string), strings.ToUpper(hex.EncodeToString(sum[:])); got != want {
				t.Fatalf("engine got bytes with md5 %s, want %s", got, want)
			}
		})
	}
}

// TestStreamWriteErrorStoresNothing: rows already handed to the engine are
// dropped when the writer fails before the end of its input.
func TestStreamWriteErrorStoresNothing(t *testing.T) {
	ctx := context.Background()
	db := openInternal(t)
	if err := db.Exec(ctx, "CREATE TABLE nums (x UInt64) ENGINE = MergeTree ORDER BY x", nil); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := db.stream(ctx, "INSERT INTO nums", "TSV", func(w io.Writer) error {
		if _, err := w.Write([]byte(strings.Repeat("1\n", 2*appendBuffer))); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("stream error = %v, want the writer's", err)
	}
	res, err := db.Query(ctx, "SELECT toUInt64(count()) FROM nums", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Rows[0][0].(uint64); n != 0 {
		t.Fatalf("%d rows stored from a failed insert", n)
	}
	// The connection still works.
	if err := db.InsertStream(ctx, "INSERT INTO nums", "TSV", []byte("7\n")); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkInsertPieces hands a 72 MB record (1M rows of two 32-byte keys
// and a UInt64) to a Null table, which parses and drops it: what is timed is
// the encoding, the transfer and the parse, not the write. "streamed" is
// Insert; "encoded whole", the reference, encodes the record into one buffer
// first and hands it over in one piece, as Insert did before it streamed
// (which also copied that buffer into C memory; the reference does not).
//
//	go test ./store/chdb -run '^$' -bench InsertPieces -benchtime 10x
func BenchmarkInsertPieces(b *testing.B) {
	ctx := context.Background()
	db := openInternal(b)
	if err := db.Exec(ctx, "CREATE TABLE sink (a FixedString(32), o FixedString(32), n UInt64) ENGINE = Null", nil); err != nil {
		b.Fatal(err)
	}
	const rows = 1_000_000
	key := &arrow.FixedSizeBinaryType{ByteWidth: 32}
	rb := array.NewRecordBuilder(memory.NewGoAllocator(), arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: key}, {Name: "o", Type: key}, {Name: "n", Type: arrow.PrimitiveTypes.Uint64},
	}, nil))
	defer rb.Release()
	k := make([]byte, 32)
	for i := range rows {
		k[0], k[1], k[2] = byte(i), byte(i>>8), byte(i>>16)
		rb.Field(0).(*array.FixedSizeBinaryBuilder).Append(k)
		rb.Field(1).(*array.FixedSizeBinaryBuilder).Append(k)
		rb.Field(2).(*array.Uint64Builder).Append(uint64(i))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	b.Run("streamed", func(b *testing.B) {
		b.SetBytes(rows * 72)
		for b.Loop() {
			if err := db.Insert(ctx, "sink", rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoded whole", func(b *testing.B) {
		db.piece = math.MaxInt
		defer func() { db.piece = appendPiece }()
		b.SetBytes(rows * 72)
		for b.Loop() {
			var buf bytes.Buffer
			w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()))
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			if err := db.InsertStream(ctx, "INSERT INTO sink", "ArrowStream", buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
