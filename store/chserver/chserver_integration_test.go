package chserver

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/internal/chtest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// shared is the test binary's server, started by the first test that
// needs one and stopped by TestMain.
var shared struct {
	once sync.Once
	srv  *chtest.Server
	err  error
}

func testServer(t testing.TB) *chtest.Server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = chtest.StartProcess(chtest.Options{}) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.srv
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// openTestServer connects to the server named by DASCH_CLICKHOUSE_DSN, or
// else to the test binary's own server (internal/chtest), started on
// first use from the embedded engine's library.
func openTestServer(t testing.TB) *Store {
	t.Helper()
	dsn := os.Getenv("DASCH_CLICKHOUSE_DSN")
	if dsn == "" {
		dsn = testServer(t).DSN("")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, dsn, Options{MaxOpenConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// scratchTable creates a table with a unique name that is dropped when the
// test ends, so runs against a shared server do not collide.
func scratchTable(t *testing.T, s *Store, columns string) string {
	t.Helper()
	name := fmt.Sprintf("dasch_chserver_test_%d", time.Now().UnixNano())
	ctx := context.Background()
	if err := s.Exec(ctx, "CREATE TABLE "+name+" ("+columns+") ENGINE = MergeTree ORDER BY tuple()", nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Exec(context.Background(), "DROP TABLE IF EXISTS "+name, nil); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return name
}

func TestIntegrationInsertQuery(t *testing.T) {
	s := openTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	table := scratchTable(t, s, `
		id UInt32,
		key FixedString(32),
		name String,
		lamports UInt64,
		owner Nullable(FixedString(32)),
		memo Nullable(String),
		fee Nullable(UInt64),
		tags Array(String),
		ok Bool,
		block_time DateTime64(3, 'UTC')`)

	const max = uint64(1<<64 - 1)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "key", Type: &arrow.FixedSizeBinaryType{ByteWidth: 32}},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "lamports", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "owner", Type: &arrow.FixedSizeBinaryType{ByteWidth: 32}, Nullable: true},
		{Name: "memo", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "fee", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "tags", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "block_time", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	t0 := time.Date(2024, 5, 6, 7, 8, 9, 123e6, time.UTC)
	zeroKey := string(make([]byte, 32))
	b.Field(0).(*array.Uint32Builder).AppendValues([]uint32{1, 2, 3}, nil)
	b.Field(1).(*array.FixedSizeBinaryBuilder).AppendValues([][]byte{[]byte(key32(1)), []byte(zeroKey), []byte(key32(0))}, nil)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"héllo", "", "a\x00b\\n'"}, nil)
	b.Field(3).(*array.Uint64Builder).AppendValues([]uint64{max, max - 1, 0}, nil)
	b.Field(4).(*array.FixedSizeBinaryBuilder).AppendValues([][]byte{[]byte(key32(7)), nil, []byte(zeroKey)}, []bool{true, false, true})
	b.Field(5).(*array.StringBuilder).AppendValues([]string{"", "memo", ""}, []bool{false, true, true})
	b.Field(6).(*array.Uint64Builder).AppendValues([]uint64{0, max, 5000}, []bool{false, true, true})
	lb := b.Field(7).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.StringBuilder)
	lb.Append(true)
	vb.AppendValues([]string{"x", "y"}, nil)
	lb.Append(true)
	lb.Append(true)
	vb.Append(key32(3))
	b.Field(8).(*array.BooleanBuilder).AppendValues([]bool{true, false, true}, nil)
	tb := b.Field(9).(*array.TimestampBuilder)
	for i := range 3 {
		tb.Append(arrow.Timestamp(t0.Add(time.Duration(i) * time.Hour).UnixMilli()))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	if err := s.Insert(ctx, table, rec); err != nil {
		t.Fatal(err)
	}

	res, err := s.Query(ctx, "SELECT id, key, name, lamports, owner, memo, fee, tags, ok, block_time FROM "+table+
		" WHERE lamports >= {min:UInt64} OR key = {k:FixedString(32)} ORDER BY id",
		store.Params{"min": "18446744073709551614", "k": key32(0)})
	if err != nil {
		t.Fatal(err)
	}
	var wantCols []store.Column
	for _, c := range [][2]string{
		{"id", "UInt32"}, {"key", "FixedString(32)"}, {"name", "String"}, {"lamports", "UInt64"},
		{"owner", "Nullable(FixedString(32))"}, {"memo", "Nullable(String)"}, {"fee", "Nullable(UInt64)"},
		{"tags", "Array(String)"}, {"ok", "Bool"}, {"block_time", "DateTime64(3, 'UTC')"},
	} {
		wantCols = append(wantCols, store.Column{Name: c[0], Type: c[1]})
	}
	if !reflect.DeepEqual(res.Columns, wantCols) {
		t.Errorf("columns = %v\nwant %v", res.Columns, wantCols)
	}
	want := [][]any{
		{uint32(1), key32(1), "héllo", max, key32(7), nil, nil, []any{"x", "y"}, true, t0},
		{uint32(2), zeroKey, "", max - 1, nil, "memo", max, []any{}, false, t0.Add(time.Hour)},
		{uint32(3), key32(0), "a\x00b\\n'", uint64(0), zeroKey, "", uint64(5000), []any{key32(3)}, true, t0.Add(2 * time.Hour)},
	}
	if !reflect.DeepEqual(res.Rows, want) {
		t.Errorf("rows =\n%#v\nwant\n%#v", res.Rows, want)
	}
}

func TestIntegrationTypes(t *testing.T) {
	s := openTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.Query(ctx, `SELECT
		toUInt128('340282366920938463463374607431768211455') AS u128,
		CAST(NULL AS Nullable(UInt128)) AS n128,
		toLowCardinality('lc') AS lc,
		[toNullable(1), NULL]::Array(Nullable(UInt8)) AS arr,
		[[1, 2], []]::Array(Array(UInt16)) AS nested,
		NULL AS nothing,
		toDate('2024-01-02') AS d,
		toDateTime('2024-01-02 03:04:05', 'Asia/Tokyo') AS dt,
		toUUID('123e4567-e89b-12d3-a456-426614174000') AS id,
		{s:String} AS param`, store.Params{"s": "it's a\\b\tc\nd\x00"})
	if err != nil {
		t.Fatal(err)
	}
	u128, _ := new(big.Int).SetString("340282366920938463463374607431768211455", 10)
	want := []any{
		u128, nil, "lc", []any{uint8(1), nil}, []any{[]any{uint16(1), uint16(2)}, []any{}}, nil,
		time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 18, 4, 5, 0, time.UTC),
		"123e4567-e89b-12d3-a456-426614174000", "it's a\\b\tc\nd\x00",
	}
	if len(res.Rows) != 1 || !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("rows = %#v\nwant %#v", res.Rows, want)
	}
}

func TestIntegrationQueryError(t *testing.T) {
	s := openTestServer(t)
	ctx := context.Background()
	for _, sql := range []string{"SELEC 1", "SELECT * FROM dasch_no_such_table_xyz"} {
		_, err := s.Query(ctx, sql, nil)
		var qe *store.QueryError
		if !errors.As(err, &qe) {
			t.Fatalf("Query(%q) error = %T %v, want *store.QueryError", sql, err, err)
		}
		if qe.SQL != sql || qe.Msg == "" {
			t.Errorf("QueryError = %+v", qe)
		}
		if err := s.Exec(ctx, sql, nil); !errors.As(err, &qe) {
			t.Errorf("Exec(%q) error = %T %v, want *store.QueryError", sql, err, err)
		}
	}
	// A type mismatch on insert is the server's or the driver's refusal,
	// never a silent success.
	table := scratchTable(t, s, "n UInt64")
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "missing", Type: arrow.PrimitiveTypes.Uint64}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Uint64Builder).Append(1)
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := s.Insert(ctx, table, rec); err == nil {
		t.Error("Insert into a missing column succeeded")
	}
}

// TestIntegrationPart: records appended to a part become visible at
// Commit, as one part; an aborted part stores nothing.
func TestIntegrationPart(t *testing.T) {
	s := openTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	table := scratchTable(t, s, "k UInt64")
	sc := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Uint64}}, nil)
	rec := func(from, n int) arrow.RecordBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		for i := from; i < from+n; i++ {
			b.Field(0).(*array.Uint64Builder).Append(uint64(i))
		}
		return b.NewRecordBatch()
	}
	count := func() (rows, parts uint64) {
		r, err := s.Query(ctx, "SELECT count() FROM "+table, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Query(ctx, "SELECT count() FROM system.parts WHERE active AND database = currentDatabase() AND table = {t:String}", store.Params{"t": table})
		if err != nil {
			t.Fatal(err)
		}
		return r.Rows[0][0].(uint64), p.Rows[0][0].(uint64)
	}
	w, err := s.OpenPart(ctx, table, sc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		r := rec(i*700_000, 700_000)
		err := w.Append(r)
		r.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if rows, _ := count(); rows != 0 {
		t.Fatalf("%d rows visible before Commit", rows)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if rows, parts := count(); rows != 2_100_000 || parts != 1 {
		t.Fatalf("%d rows in %d parts, want 2100000 in 1", rows, parts)
	}
	w, err = s.OpenPart(ctx, table, sc)
	if err != nil {
		t.Fatal(err)
	}
	r := rec(0, 10)
	err = w.Append(r)
	r.Release()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); !errors.Is(err, arrowstore.ErrPartDone) {
		t.Fatalf("commit after abort: %v", err)
	}
	if rows, _ := count(); rows != 2_100_000 {
		t.Fatalf("%d rows after an aborted part", rows)
	}
}
