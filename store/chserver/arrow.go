package chserver

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// columnValues converts one Arrow column into the slice clickhouse-go's
// batch.Column(i).Append takes for it:
//
//	Uint8..64, Int8..64, Float32/64, Boolean   → []T
//	String, LargeString, Binary, LargeBinary   → []string
//	FixedSizeBinary (FixedString(N))           → []string of raw bytes
//	Timestamp, Date32, Date64                  → []time.Time (UTC)
//	List, LargeList, FixedSizeList of the above → [][]T
//
// When nullable is set or the array holds nulls the result holds pointers
// instead ([]*T, nil for null), which the driver maps to Nullable(T); a
// null list becomes an empty array, as ClickHouse arrays cannot be null.
// The result shares no memory with the Arrow buffers, so it stays valid
// after the record is released.
func columnValues(arr arrow.Array, nullable bool) (any, error) {
	ptr := nullable || arr.NullN() > 0
	switch a := arr.(type) {
	case *array.Uint8:
		return numbers(a, ptr), nil
	case *array.Uint16:
		return numbers(a, ptr), nil
	case *array.Uint32:
		return numbers(a, ptr), nil
	case *array.Uint64:
		return numbers(a, ptr), nil
	case *array.Int8:
		return numbers(a, ptr), nil
	case *array.Int16:
		return numbers(a, ptr), nil
	case *array.Int32:
		return numbers(a, ptr), nil
	case *array.Int64:
		return numbers(a, ptr), nil
	case *array.Float32:
		return numbers(a, ptr), nil
	case *array.Float64:
		return numbers(a, ptr), nil
	case *array.Boolean:
		return mapped(a, ptr, a.Value), nil
	case *array.String:
		return varStrings(a, a.ValueBytes(), a.ValueOffsets(), ptr), nil
	case *array.LargeString:
		return varStrings(a, a.ValueBytes(), a.ValueOffsets(), ptr), nil
	case *array.Binary:
		return varStrings(a, a.ValueBytes(), a.ValueOffsets(), ptr), nil
	case *array.LargeBinary:
		return varStrings(a, a.ValueBytes(), a.ValueOffsets(), ptr), nil
	case *array.FixedSizeBinary:
		return fixedStrings(a, ptr), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return mapped(a, ptr, func(i int) time.Time { return a.Value(i).ToTime(unit) }), nil
	case *array.Date32:
		return mapped(a, ptr, func(i int) time.Time { return a.Value(i).ToTime() }), nil
	case *array.Date64:
		return mapped(a, ptr, func(i int) time.Time { return a.Value(i).ToTime() }), nil
	case *array.List:
		return lists(a)
	case *array.LargeList:
		return lists(a)
	case *array.FixedSizeList:
		return lists(a)
	}
	return nil, fmt.Errorf("arrow type %s is not supported for insert", arr.DataType())
}

type numeric interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

type numericArray[T numeric] interface {
	arrow.Array
	Value(int) T
	Values() []T
}

func numbers[T numeric](a numericArray[T], ptr bool) any {
	if !ptr {
		// Values aliases the Arrow buffer; the clone makes it ours.
		return slices.Clone(a.Values())
	}
	return mapped(a, true, a.Value)
}

// mapped builds []T or, with ptr, []*T whose non-nil entries point into
// one backing array, so a nullable column costs two allocations, not n.
func mapped[T any](a arrow.Array, ptr bool, value func(int) T) any {
	n := a.Len()
	vals := make([]T, n)
	for i := range vals {
		if a.IsValid(i) {
			vals[i] = value(i)
		}
	}
	if !ptr {
		return vals
	}
	out := make([]*T, n)
	for i := range out {
		if a.IsValid(i) {
			out[i] = &vals[i]
		}
	}
	return out
}

// varStrings copies a variable-length column's bytes into one string and
// slices every value out of it: one allocation for the data, however many
// values.
func varStrings[O int32 | int64](a arrow.Array, data []byte, offsets []O, ptr bool) any {
	n := a.Len()
	if n == 0 {
		if ptr {
			return []*string{}
		}
		return []string{}
	}
	all := string(data)
	base := offsets[0]
	return mapped(a, ptr, func(i int) string { return all[offsets[i]-base : offsets[i+1]-base] })
}

// fixedStrings does the same for FixedSizeBinary, whose values are
// byte-exact keys: zero bytes inside are kept, not trimmed.
func fixedStrings(a *array.FixedSizeBinary, ptr bool) any {
	n := a.Len()
	w := a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
	buf := make([]byte, 0, n*w)
	for i := 0; i < n; i++ {
		if a.IsValid(i) {
			buf = append(buf, a.Value(i)...)
		} else {
			buf = append(buf, make([]byte, w)...)
		}
	}
	all := string(buf)
	return mapped(a, ptr, func(i int) string { return all[i*w : (i+1)*w] })
}

// lists converts a list column by converting the child values it spans
// once and slicing them per row into [][]T.
func lists(a array.ListLike) (any, error) {
	elem := a.DataType().(arrow.ListLikeType).ElemField()
	n := a.Len()
	var lo, hi int64
	if n > 0 {
		lo, _ = a.ValueOffsets(0)
		_, hi = a.ValueOffsets(n - 1)
	}
	child := array.NewSlice(a.ListValues(), lo, hi)
	defer child.Release()
	vals, err := columnValues(child, elem.Nullable)
	if err != nil {
		return nil, fmt.Errorf("list element: %w", err)
	}
	cv := reflect.ValueOf(vals)
	out := reflect.MakeSlice(reflect.SliceOf(cv.Type()), n, n)
	empty := reflect.MakeSlice(cv.Type(), 0, 0)
	for i := 0; i < n; i++ {
		if !a.IsValid(i) {
			out.Index(i).Set(empty)
			continue
		}
		s, e := a.ValueOffsets(i)
		s, e = s-lo, e-lo
		out.Index(i).Set(cv.Slice3(int(s), int(e), int(e)))
	}
	return out.Interface(), nil
}
