package rowbinary_test

import (
	"context"
	"math/big"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/rowbinary"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// raw returns the engine's RowBinaryWithNamesAndTypes output of sql.
func raw(t *testing.T, sql string) []byte {
	t.Helper()
	rq, ok := storetest.Open(t).(store.RawQuerier)
	if !ok {
		t.Fatal("the embedded store gives no raw output")
	}
	b, err := rq.QueryRaw(context.Background(), sql, nil, "RowBinaryWithNamesAndTypes")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bigInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

// TestDecodeTypes decodes every supported type as the engine writes it.
func TestDecodeTypes(t *testing.T) {
	cases := []struct {
		expr, typ string
		want      any
	}{
		{"toUInt8(200)", "UInt8", uint8(200)},
		{"toInt8(-100)", "Int8", int8(-100)},
		{"toUInt16(65000)", "UInt16", uint16(65000)},
		{"toInt16(-32000)", "Int16", int16(-32000)},
		{"toUInt32(4000000000)", "UInt32", uint32(4000000000)},
		{"toInt32(-2000000000)", "Int32", int32(-2000000000)},
		{"toUInt64('18446744073709551615')", "UInt64", uint64(18446744073709551615)},
		{"toInt64(-9000000000000000000)", "Int64", int64(-9000000000000000000)},
		{"toUInt128('340282366920938463463374607431768211455')", "UInt128", bigInt("340282366920938463463374607431768211455")},
		{"toInt128('-170141183460469231731687303715884105728')", "Int128", bigInt("-170141183460469231731687303715884105728")},
		{"toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935')", "UInt256",
			bigInt("115792089237316195423570985008687907853269984665640564039457584007913129639935")},
		{"toInt256(-5)", "Int256", big.NewInt(-5)},
		{"toFloat32(1.5)", "Float32", float32(1.5)},
		{"toFloat64(-2.25)", "Float64", -2.25},
		{"true", "Bool", true},
		{"'héllo'", "String", "héllo"},
		{"''", "String", ""},
		{"toFixedString('ab', 4)", "FixedString(4)", "ab\x00\x00"},
		{"CAST(7 AS Nullable(UInt64))", "Nullable(UInt64)", uint64(7)},
		{"CAST(NULL AS Nullable(UInt64))", "Nullable(UInt64)", nil},
		{"NULL", "Nullable(Nothing)", nil},
		{"CAST(['a', NULL] AS Array(Nullable(String)))", "Array(Nullable(String))", []any{"a", nil}},
		{"CAST([] AS Array(UInt8))", "Array(UInt8)", []any{}},
		{"toLowCardinality('lc')", "LowCardinality(String)", "lc"},
		{"toDate('2026-11-29')", "Date", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
		{"toDate32('1900-01-02')", "Date32", time.Date(1900, 1, 2, 0, 0, 0, 0, time.UTC)},
		{"toDateTime('2026-11-29 10:11:12', 'UTC')", "DateTime('UTC')", time.Date(2026, 11, 29, 10, 11, 12, 0, time.UTC)},
		{"toDateTime64('2026-11-29 10:11:12.345', 3, 'UTC')", "DateTime64(3, 'UTC')", time.Date(2026, 11, 29, 10, 11, 12, 345e6, time.UTC)},
		{"toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')", "UUID", "61f0c404-5cb3-11e7-907b-a6006ad3dba0"},
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = c.expr + " AS c" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	res, err := rowbinary.Decode(raw(t, "SELECT "+strings.Join(exprs, ", ")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || len(res.Columns) != len(cases) {
		t.Fatalf("%d rows of %d columns, want 1 of %d", len(res.Rows), len(res.Columns), len(cases))
	}
	for i, c := range cases {
		if got := res.Columns[i].Type; got != c.typ {
			t.Errorf("%s: type %s, want %s", c.expr, got, c.typ)
		}
		got := res.Rows[0][i]
		if g, ok := got.(*big.Int); ok {
			if w, ok := c.want.(*big.Int); !ok || g.Cmp(w) != 0 {
				t.Errorf("%s: %v, want %v", c.expr, got, c.want)
			}
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %#v (%T), want %#v (%T)", c.expr, got, got, c.want, c.want)
		}
	}
}

// TestDecodeCut cuts the engine's output at every byte: a cut at the end
// of the header or of a row decodes to that prefix of the rows, any other
// is an error, never a panic or a wrong row.
func TestDecodeCut(t *testing.T) {
	b := raw(t, `SELECT number AS n, toString(number) AS s, if(number % 2 = 0, NULL, number) AS o,
		range(number % 3) AS a, toFixedString(char(65 + number), 1) AS f FROM numbers(5)`)
	full, err := rowbinary.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Rows) != 5 {
		t.Fatalf("%d rows, want 5", len(full.Rows))
	}
	whole := 0
	for cut := 0; cut < len(b); cut++ {
		res, err := rowbinary.Decode(b[:cut])
		if err != nil {
			continue
		}
		whole++
		if cut == 0 {
			if len(res.Rows) != 0 || len(res.Columns) != 0 {
				t.Errorf("empty output: %d columns, %d rows", len(res.Columns), len(res.Rows))
			}
			continue
		}
		if len(res.Rows) > 0 && !reflect.DeepEqual(res.Rows, full.Rows[:len(res.Rows)]) {
			t.Errorf("cut at %d: rows %v are not a prefix of %v", cut, res.Rows, full.Rows)
		}
	}
	// Empty output, the header alone, and the ends of the first 4 rows.
	if whole != 6 {
		t.Errorf("%d cuts decoded, want 6", whole)
	}
}

// TestExpect checks a fixed layout's header.
func TestExpect(t *testing.T) {
	b := raw(t, `SELECT toUInt64(1) AS u, 'x' AS s`)
	cases := []struct {
		name string
		in   []byte
		want []string
		err  string
	}{
		{"match", b, []string{"UInt64", "String"}, ""},
		{"empty output", nil, []string{"UInt64"}, ""},
		{"fewer columns", b, []string{"UInt64"}, "2 columns, want 1"},
		{"other type", b, []string{"UInt64", "FixedString(1)"}, "column 1 is String, want FixedString(1)"},
		{"cut header", b[:5], []string{"UInt64", "String"}, "unexpected end of data"},
		{"column count past the data", []byte{0xff, 0xff, 0x03, 1, 'a'}, []string{"UInt64"}, "columns in"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rowbinary.NewReader(c.in)
			err := r.Expect(c.want)
			if c.err == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if len(c.in) > 0 && (r.U64() != 1 || r.Str() != "x" || r.More() || r.Err() != nil) {
					t.Fatal("row after the header not read back")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %v, want one containing %q", err, c.err)
			}
		})
	}
}

// TestReaderSticky: after a short read every read returns zero values and
// the first error stays.
func TestReaderSticky(t *testing.T) {
	r := rowbinary.NewReader([]byte{5, 'a', 'b'}) // a String of 5 bytes, 2 there
	if p := r.StrBytes(); p != nil {
		t.Fatalf("short string read %q", p)
	}
	if r.Err() != rowbinary.ErrShort {
		t.Fatalf("error %v, want ErrShort", r.Err())
	}
	if r.U8() != 0 || r.U64() != 0 || r.Present() || r.Bytes() != nil || r.More() {
		t.Fatal("a read after the error returned a value")
	}
	r = rowbinary.NewReader([]byte{0, 2, 'h', 'i', 1})
	if !r.Present() || string(r.Bytes()) != "hi" || r.Present() || r.More() || r.Err() != nil {
		t.Fatal("Nullable(String) 'hi' then NULL not read back")
	}
}
