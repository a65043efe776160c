package chserver

import "reflect"

// scanCol decodes one result column. The scalar types dasch's reads use
// most scan into one destination reused for every row and are read back
// without reflection; any other type (Nullable, Array, Date, UUID, ...)
// gets a fresh destination per row, since the driver may hand back
// pointers and slices a later Scan would overwrite, and is normalized.
type scanCol struct {
	dest  any             // reused destination; nil: fresh() per row
	fresh func() any      // a new destination (types without dest)
	value func(d any) any // the normalized value scanned into d
}

// anyType stands in for a column the driver gives no scan type.
var anyType = reflect.TypeFor[any]()

func newScanCol(t reflect.Type) scanCol {
	switch t {
	case reflect.TypeFor[string]():
		return scanCol{dest: new(string), value: func(d any) any { return *d.(*string) }}
	case reflect.TypeFor[uint64]():
		return scanCol{dest: new(uint64), value: func(d any) any { return *d.(*uint64) }}
	case reflect.TypeFor[uint32]():
		return scanCol{dest: new(uint32), value: func(d any) any { return *d.(*uint32) }}
	case reflect.TypeFor[uint16]():
		return scanCol{dest: new(uint16), value: func(d any) any { return *d.(*uint16) }}
	case reflect.TypeFor[uint8]():
		return scanCol{dest: new(uint8), value: func(d any) any { return *d.(*uint8) }}
	case reflect.TypeFor[int64]():
		return scanCol{dest: new(int64), value: func(d any) any { return *d.(*int64) }}
	case reflect.TypeFor[int32]():
		return scanCol{dest: new(int32), value: func(d any) any { return *d.(*int32) }}
	case reflect.TypeFor[bool]():
		return scanCol{dest: new(bool), value: func(d any) any { return *d.(*bool) }}
	case reflect.TypeFor[float64]():
		return scanCol{dest: new(float64), value: func(d any) any { return *d.(*float64) }}
	}
	if t == nil {
		t = anyType
	}
	return scanCol{
		fresh: func() any { return reflect.New(t).Interface() },
		value: func(d any) any { return normalize(reflect.ValueOf(d).Elem().Interface()) },
	}
}
