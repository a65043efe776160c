package store

import "fmt"

// Row reads one row of a Result through typed accessors, the one place
// engine values (see Result) become Go values. Each accessor checks the
// value's type; on a mismatch or a missing column it records an error
// naming the column and returns the zero value, and Err returns the
// first such error. A reader checks Err once after its reads, and a
// query whose column types changed fails with that error instead of a
// panic or a silent zero.
type Row struct {
	cols []Column
	vals []any
	err  error
}

// Row returns row i of r.
func (r *Result) Row(i int) Row { return Row{cols: r.Columns, vals: r.Rows[i]} }

// Len is the number of values in the row.
func (r *Row) Len() int { return len(r.vals) }

// Err is the first mismatch of the row's reads, or nil.
func (r *Row) Err() error { return r.err }

// IsNull reports whether column i holds NULL.
func (r *Row) IsNull(i int) bool { return r.has(i) && r.vals[i] == nil }

func (r *Row) has(i int) bool { return uint(i) < uint(len(r.vals)) }

// U8 reads a UInt8 column.
func (r *Row) U8(i int) uint8 { return get[uint8](r, i, "UInt8") }

// U16 reads a UInt16 column.
func (r *Row) U16(i int) uint16 { return get[uint16](r, i, "UInt16") }

// U32 reads a UInt32 column.
func (r *Row) U32(i int) uint32 { return get[uint32](r, i, "UInt32") }

// U64 reads a UInt64 column.
func (r *Row) U64(i int) uint64 { return get[uint64](r, i, "UInt64") }

// I64 reads an Int64 column.
func (r *Row) I64(i int) int64 { return get[int64](r, i, "Int64") }

// Str reads a String or FixedString column: its raw bytes.
func (r *Row) Str(i int) string { return get[string](r, i, "String") }

// Bool reads a Bool column, or a UInt8 one: boolean expressions such as
// IN return UInt8.
func (r *Row) Bool(i int) bool {
	if r.has(i) {
		switch v := r.vals[i].(type) {
		case bool:
			return v
		case uint8:
			return v != 0
		}
	}
	r.fail(i, "Bool")
	return false
}

// OptU64 reads a Nullable(UInt64) column; ok is false for NULL.
func (r *Row) OptU64(i int) (v uint64, ok bool) { return opt[uint64](r, i, "Nullable(UInt64)") }

// OptStr reads a Nullable(String) or Nullable(FixedString) column; ok
// is false for NULL.
func (r *Row) OptStr(i int) (v string, ok bool) { return opt[string](r, i, "Nullable(String)") }

// Fixed copies a FixedString(len(dst)) column into dst.
func (r *Row) Fixed(i int, dst []byte) {
	if r.has(i) {
		if s, ok := r.vals[i].(string); ok && len(s) == len(dst) {
			copy(dst, s)
			return
		}
	}
	r.fail(i, fmt.Sprintf("FixedString(%d)", len(dst)))
}

// Key reads a FixedString(32) column: a pubkey or a hash.
func (r *Row) Key(i int) (k [32]byte) {
	r.Fixed(i, k[:])
	return k
}

// OptKey reads a Nullable(FixedString(32)) column; ok is false for NULL.
func (r *Row) OptKey(i int) (k [32]byte, ok bool) {
	if r.IsNull(i) {
		return k, false
	}
	r.Fixed(i, k[:])
	return k, true
}

// Strs reads an Array(String) column.
func (r *Row) Strs(i int) []string {
	vals := get[[]any](r, i, "Array(String)")
	out := make([]string, len(vals))
	for j, v := range vals {
		s, ok := v.(string)
		if !ok {
			r.fail(i, "Array(String)")
			return nil
		}
		out[j] = s
	}
	return out
}

func get[T any](r *Row, i int, want string) T {
	if r.has(i) {
		if v, ok := r.vals[i].(T); ok {
			return v
		}
	}
	r.fail(i, want)
	var zero T
	return zero
}

func opt[T any](r *Row, i int, want string) (T, bool) {
	var zero T
	if r.IsNull(i) {
		return zero, false
	}
	if r.has(i) {
		if v, ok := r.vals[i].(T); ok {
			return v, true
		}
	}
	r.fail(i, want)
	return zero, false
}

// fail records the first mismatch: column i is missing or does not hold
// a want.
func (r *Row) fail(i int, want string) {
	if r.err != nil {
		return
	}
	name := fmt.Sprintf("column %d", i)
	if uint(i) < uint(len(r.cols)) {
		name += " (" + r.cols[i].Name + ")"
	}
	switch {
	case !r.has(i):
		r.err = fmt.Errorf("%s: the row has %d columns, want %s", name, len(r.vals), want)
	case r.vals[i] == nil:
		r.err = fmt.Errorf("%s holds NULL, want %s", name, want)
	default:
		v := r.vals[i]
		size := ""
		if s, ok := v.(string); ok {
			size = fmt.Sprintf(" of %d bytes", len(s))
		}
		r.err = fmt.Errorf("%s holds %T%s, want %s", name, v, size, want)
	}
}
