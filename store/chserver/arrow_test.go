package chserver

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// key32 is a 32-byte key with zero bytes at both ends and inside, the shape
// of Solana pubkeys that a trimming conversion would corrupt.
func key32(b byte) string {
	k := make([]byte, 32)
	k[1], k[15], k[30] = b, 0xff, b
	return string(k)
}

func TestColumnValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const max = uint64(1<<64 - 1)
	ts := time.Date(2024, 3, 1, 12, 30, 15, 123456789, time.UTC)

	tests := []struct {
		name     string
		build    func() arrow.Array
		nullable bool
		want     any
		wantErr  string
	}{
		{
			name: "uint64 near 2^64",
			build: func() arrow.Array {
				b := array.NewUint64Builder(mem)
				defer b.Release()
				b.AppendValues([]uint64{0, max - 1, max}, nil)
				return b.NewArray()
			},
			want: []uint64{0, max - 1, max},
		},
		{
			name: "uint64 with nulls",
			build: func() arrow.Array {
				b := array.NewUint64Builder(mem)
				defer b.Release()
				b.AppendValues([]uint64{max, 0, 7}, []bool{true, false, true})
				return b.NewArray()
			},
			want: []*uint64{ptr(max), nil, ptr(uint64(7))},
		},
		{
			name: "nullable field without nulls",
			build: func() arrow.Array {
				b := array.NewUint32Builder(mem)
				defer b.Release()
				b.AppendValues([]uint32{1, 2}, nil)
				return b.NewArray()
			},
			nullable: true,
			want:     []*uint32{ptr(uint32(1)), ptr(uint32(2))},
		},
		{
			name: "uint8", build: func() arrow.Array {
				b := array.NewUint8Builder(mem)
				defer b.Release()
				b.AppendValues([]uint8{0, 255}, nil)
				return b.NewArray()
			},
			want: []uint8{0, 255},
		},
		{
			name: "uint16", build: func() arrow.Array {
				b := array.NewUint16Builder(mem)
				defer b.Release()
				b.AppendValues([]uint16{1, 65535}, nil)
				return b.NewArray()
			},
			want: []uint16{1, 65535},
		},
		{
			name: "int8 with null", build: func() arrow.Array {
				b := array.NewInt8Builder(mem)
				defer b.Release()
				b.AppendValues([]int8{-128, 0}, []bool{true, false})
				return b.NewArray()
			},
			want: []*int8{ptr(int8(-128)), nil},
		},
		{
			name: "int16", build: func() arrow.Array {
				b := array.NewInt16Builder(mem)
				defer b.Release()
				b.AppendValues([]int16{-32768, 32767}, nil)
				return b.NewArray()
			},
			want: []int16{-32768, 32767},
		},
		{
			name: "int32", build: func() arrow.Array {
				b := array.NewInt32Builder(mem)
				defer b.Release()
				b.AppendValues([]int32{-1, 1}, nil)
				return b.NewArray()
			},
			want: []int32{-1, 1},
		},
		{
			name: "int64", build: func() arrow.Array {
				b := array.NewInt64Builder(mem)
				defer b.Release()
				b.AppendValues([]int64{-1 << 63, 1<<63 - 1}, nil)
				return b.NewArray()
			},
			want: []int64{-1 << 63, 1<<63 - 1},
		},
		{
			name: "float32", build: func() arrow.Array {
				b := array.NewFloat32Builder(mem)
				defer b.Release()
				b.AppendValues([]float32{1.5, -0.25}, nil)
				return b.NewArray()
			},
			want: []float32{1.5, -0.25},
		},
		{
			name: "float64 with null", build: func() arrow.Array {
				b := array.NewFloat64Builder(mem)
				defer b.Release()
				b.AppendValues([]float64{0, 2.5}, []bool{false, true})
				return b.NewArray()
			},
			want: []*float64{nil, ptr(2.5)},
		},
		{
			name: "boolean", build: func() arrow.Array {
				b := array.NewBooleanBuilder(mem)
				defer b.Release()
				b.AppendValues([]bool{true, false, true}, nil)
				return b.NewArray()
			},
			want: []bool{true, false, true},
		},
		{
			name: "boolean with null", build: func() arrow.Array {
				b := array.NewBooleanBuilder(mem)
				defer b.Release()
				b.AppendValues([]bool{true, false, false}, []bool{true, true, false})
				return b.NewArray()
			},
			want: []*bool{ptr(true), ptr(false), nil},
		},
		{
			name: "string", build: func() arrow.Array {
				b := array.NewStringBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"", "héllo", "a\x00b"}, nil)
				return b.NewArray()
			},
			want: []string{"", "héllo", "a\x00b"},
		},
		{
			name: "string with nulls", build: func() arrow.Array {
				b := array.NewStringBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"x", "", "", "y"}, []bool{true, false, true, true})
				return b.NewArray()
			},
			want: []*string{ptr("x"), nil, ptr(""), ptr("y")},
		},
		{
			name: "empty string column", build: func() arrow.Array {
				b := array.NewStringBuilder(mem)
				defer b.Release()
				return b.NewArray()
			},
			want: []string{},
		},
		{
			name: "large string", build: func() arrow.Array {
				b := array.NewLargeStringBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"a", "bc"}, nil)
				return b.NewArray()
			},
			want: []string{"a", "bc"},
		},
		{
			name: "binary", build: func() arrow.Array {
				b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
				defer b.Release()
				b.AppendValues([][]byte{{0, 1, 2}, {}, {0xff}}, nil)
				return b.NewArray()
			},
			want: []string{"\x00\x01\x02", "", "\xff"},
		},
		{
			name: "large binary with null", build: func() arrow.Array {
				b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.LargeBinary)
				defer b.Release()
				b.AppendValues([][]byte{{0}, nil}, []bool{true, false})
				return b.NewArray()
			},
			want: []*string{ptr("\x00"), nil},
		},
		{
			name: "fixed size binary 32-byte keys", build: func() arrow.Array {
				b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 32})
				defer b.Release()
				b.AppendValues([][]byte{[]byte(key32(1)), make([]byte, 32), []byte(key32(0))}, nil)
				return b.NewArray()
			},
			want: []string{key32(1), string(make([]byte, 32)), key32(0)},
		},
		{
			name: "fixed size binary with null", build: func() arrow.Array {
				b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 32})
				defer b.Release()
				b.Append([]byte(key32(9)))
				b.AppendNull()
				return b.NewArray()
			},
			want: []*string{ptr(key32(9)), nil},
		},
		{
			name: "timestamp ms", build: func() arrow.Array {
				b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"})
				defer b.Release()
				b.Append(arrow.Timestamp(ts.UnixMilli()))
				b.Append(0)
				return b.NewArray()
			},
			want: []time.Time{ts.Truncate(time.Millisecond), time.Unix(0, 0).UTC()},
		},
		{
			name: "timestamp ns in another zone with null", build: func() arrow.Array {
				b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Asia/Tokyo"})
				defer b.Release()
				b.Append(arrow.Timestamp(ts.UnixNano()))
				b.AppendNull()
				return b.NewArray()
			},
			want: []*time.Time{ptr(ts), nil},
		},
		{
			name: "timestamp s", build: func() arrow.Array {
				b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Second})
				defer b.Release()
				b.Append(arrow.Timestamp(ts.Unix()))
				return b.NewArray()
			},
			want: []time.Time{ts.Truncate(time.Second)},
		},
		{
			name: "date32", build: func() arrow.Array {
				b := array.NewDate32Builder(mem)
				defer b.Release()
				b.Append(arrow.Date32FromTime(ts))
				return b.NewArray()
			},
			want: []time.Time{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		},
		{
			name: "list of uint64 with null and empty lists", build: func() arrow.Array {
				b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Uint64)
				defer b.Release()
				vb := b.ValueBuilder().(*array.Uint64Builder)
				b.Append(true)
				vb.AppendValues([]uint64{1, max}, nil)
				b.AppendNull()
				b.Append(true)
				b.Append(true)
				vb.Append(3)
				return b.NewArray()
			},
			// arrow.ListOf marks elements nullable, so they travel as pointers.
			want: [][]*uint64{{ptr(uint64(1)), ptr(max)}, {}, {}, {ptr(uint64(3))}},
		},
		{
			name: "list of non-nullable strings", build: func() arrow.Array {
				b := array.NewListBuilderWithField(mem, arrow.Field{Name: "item", Type: arrow.BinaryTypes.String})
				defer b.Release()
				vb := b.ValueBuilder().(*array.StringBuilder)
				b.Append(true)
				vb.AppendValues([]string{"a", "b"}, nil)
				b.Append(true)
				vb.Append("c")
				return b.NewArray()
			},
			want: [][]string{{"a", "b"}, {"c"}},
		},
		{
			name: "list of fixed size binary with null element", build: func() arrow.Array {
				b := array.NewListBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 32})
				defer b.Release()
				vb := b.ValueBuilder().(*array.FixedSizeBinaryBuilder)
				b.Append(true)
				vb.Append([]byte(key32(1)))
				vb.AppendNull()
				return b.NewArray()
			},
			want: [][]*string{{ptr(key32(1)), nil}},
		},
		{
			name: "large list", build: func() arrow.Array {
				b := array.NewLargeListBuilderWithField(mem, arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32})
				defer b.Release()
				vb := b.ValueBuilder().(*array.Int32Builder)
				b.Append(true)
				vb.AppendValues([]int32{-1, 2}, nil)
				return b.NewArray()
			},
			want: [][]int32{{-1, 2}},
		},
		{
			name: "fixed size list", build: func() arrow.Array {
				b := array.NewFixedSizeListBuilderWithField(mem, 2, arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Uint8})
				defer b.Release()
				vb := b.ValueBuilder().(*array.Uint8Builder)
				b.Append(true)
				vb.AppendValues([]uint8{1, 2}, nil)
				b.Append(true)
				vb.AppendValues([]uint8{3, 4}, nil)
				return b.NewArray()
			},
			want: [][]uint8{{1, 2}, {3, 4}},
		},
		{
			name: "list of lists", build: func() arrow.Array {
				inner := arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Uint16})
				b := array.NewListBuilderWithField(mem, arrow.Field{Name: "item", Type: inner})
				defer b.Release()
				ib := b.ValueBuilder().(*array.ListBuilder)
				vb := ib.ValueBuilder().(*array.Uint16Builder)
				b.Append(true)
				ib.Append(true)
				vb.AppendValues([]uint16{1, 2}, nil)
				ib.Append(true)
				b.Append(true)
				return b.NewArray()
			},
			want: [][][]uint16{{{1, 2}, {}}, {}},
		},
		{
			name: "unsupported type", build: func() arrow.Array {
				b := array.NewFloat16Builder(mem)
				defer b.Release()
				b.AppendNull()
				return b.NewArray()
			},
			wantErr: "float16 is not supported",
		},
		{
			name: "list of unsupported type", build: func() arrow.Array {
				b := array.NewListBuilder(mem, arrow.FixedWidthTypes.Float16)
				defer b.Release()
				b.Append(true)
				return b.NewArray()
			},
			wantErr: "list element: arrow type float16",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arr := tt.build()
			got, err := columnValues(arr, tt.nullable)
			arr.Release()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("columnValues = %#v (%T)\nwant %#v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

// TestColumnValuesSliced checks arrays that start at an offset into their
// buffers, as array.NewSlice and record slicing produce.
func TestColumnValuesSliced(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const max = uint64(1<<64 - 1)

	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"skip", "a", "", "bcd", "tail"}, []bool{true, true, false, true, true})
	strs := sb.NewArray()
	sb.Release()

	ub := array.NewUint64Builder(mem)
	ub.AppendValues([]uint64{1, max, 3, 4}, nil)
	nums := ub.NewArray()
	ub.Release()

	fb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 32})
	fb.AppendValues([][]byte{[]byte(key32(1)), []byte(key32(2)), []byte(key32(3))}, nil)
	keys := fb.NewArray()
	fb.Release()

	lb := array.NewListBuilderWithField(mem, arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Uint64})
	vb := lb.ValueBuilder().(*array.Uint64Builder)
	for _, l := range [][]uint64{{9}, {1, 2}, {}, {3}, {8, 8}} {
		lb.Append(true)
		vb.AppendValues(l, nil)
	}
	lists := lb.NewArray()
	lb.Release()

	tests := []struct {
		name string
		arr  arrow.Array
		i, j int64
		want any
	}{
		{"strings", strs, 1, 4, []*string{ptr("a"), nil, ptr("bcd")}},
		{"uint64", nums, 1, 3, []uint64{max, 3}},
		{"keys", keys, 1, 3, []string{key32(2), key32(3)}},
		{"lists", lists, 1, 4, [][]uint64{{1, 2}, {}, {3}}},
		{"empty slice", nums, 2, 2, []uint64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := array.NewSlice(tt.arr, tt.i, tt.j)
			defer s.Release()
			got, err := columnValues(s, false)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("columnValues = %#v, want %#v", got, tt.want)
			}
		})
	}
	for _, a := range []arrow.Array{strs, nums, keys, lists} {
		a.Release()
	}
}

// TestColumnValuesOwnsMemory checks the slices survive the Arrow buffers
// being overwritten, as happens when an allocator reuses released memory.
func TestColumnValuesOwnsMemory(t *testing.T) {
	mem := memory.NewGoAllocator()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"abc", "def"}, nil)
	strs := sb.NewArray().(*array.String)
	sb.Release()
	defer strs.Release()

	ub := array.NewUint64Builder(mem)
	ub.AppendValues([]uint64{1, 2}, nil)
	nums := ub.NewArray().(*array.Uint64)
	ub.Release()
	defer nums.Release()

	gotS, err := columnValues(strs, false)
	if err != nil {
		t.Fatal(err)
	}
	gotN, err := columnValues(nums, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range strs.Data().Buffers()[2].Bytes() {
		strs.Data().Buffers()[2].Bytes()[i] = 'z'
	}
	nums.Uint64Values()[0] = 99
	if !reflect.DeepEqual(gotS, []string{"abc", "def"}) || !reflect.DeepEqual(gotN, []uint64{1, 2}) {
		t.Errorf("converted values changed with the Arrow buffers: %v %v", gotS, gotN)
	}
}
