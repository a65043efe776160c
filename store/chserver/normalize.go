package chserver

import (
	"math/big"
	"net"
	"reflect"
	"time"

	"github.com/google/uuid"
)

// normalize turns one value scanned by clickhouse-go into the Go value
// store.Result documents, so both engines hand out identical rows:
// Nullable scans as a pointer (nil or the value), Array as a typed slice
// (→ []any, elements normalized), Date/DateTime as time.Time in any zone
// (→ UTC), UUID as uuid.UUID (→ canonical string, as the embedded engine
// gives it), IPv4/IPv6 as net.IP (→ its text form). FixedString and LowCardinality already scan as their base type.
// Types store.Result does not cover pass through unchanged.
func normalize(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string, bool,
		uint8, uint16, uint32, uint64,
		int8, int16, int32, int64,
		float32, float64:
		return x
	case time.Time:
		return x.UTC()
	case *big.Int:
		if x == nil {
			return nil
		}
		return x
	case uuid.UUID:
		return x.String()
	case net.IP:
		// A byte slice, but a scalar: without this it would become an array.
		return x.String()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return normalize(rv.Elem().Interface())
	case reflect.Slice:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = normalize(rv.Index(i).Interface())
		}
		return out
	}
	return v
}
