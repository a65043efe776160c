package rowbinary

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// Decode decodes RowBinaryWithNamesAndTypes output into a Result with the
// value types documented on store.Result.
func Decode(b []byte) (*store.Result, error) {
	res := &store.Result{}
	r := NewReader(b)
	names, types, err := r.Header()
	if err != nil {
		return nil, err
	}
	res.Columns = make([]store.Column, len(names))
	decs := make([]decoder, len(names))
	for i := range names {
		res.Columns[i] = store.Column{Name: names[i], Type: types[i]}
		if decs[i], err = decoderFor(types[i]); err != nil {
			return nil, fmt.Errorf("column %s: %w", names[i], err)
		}
	}
	for r.More() {
		row := make([]any, len(decs))
		for i, d := range decs {
			if row[i] = d(r); r.err != nil {
				return nil, fmt.Errorf("row %d column %s: %w", len(res.Rows), names[i], r.err)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// decoder reads one value of a type; a short read sets the Reader's err.
type decoder func(*Reader) any

func fixed[T any](n int, conv func([]byte) T) decoder {
	return func(r *Reader) any {
		p := r.Take(n)
		if p == nil {
			return nil
		}
		return conv(p)
	}
}

// bigLE reads an n-byte little-endian integer, two's complement if signed.
func bigLE(p []byte, signed bool) *big.Int {
	be := make([]byte, len(p))
	for i := range p {
		be[len(p)-1-i] = p[i]
	}
	v := new(big.Int).SetBytes(be)
	if signed && len(p) > 0 && p[len(p)-1]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(p))))
	}
	return v
}

// decoderFor parses a ClickHouse type name into a decoder.
func decoderFor(t string) (decoder, error) {
	t = strings.TrimSpace(t)
	if inner, ok := unwrap(t, "Nullable"); ok {
		d, err := decoderFor(inner)
		if err != nil {
			return nil, err
		}
		return func(r *Reader) any {
			if !r.Present() {
				return nil
			}
			return d(r)
		}, nil
	}
	if inner, ok := unwrap(t, "LowCardinality"); ok {
		return decoderFor(inner)
	}
	if inner, ok := unwrap(t, "Array"); ok {
		d, err := decoderFor(inner)
		if err != nil {
			return nil, err
		}
		return func(r *Reader) any {
			n := r.Uvarint()
			// Every element takes a byte or more, except Nothing's: a
			// count above what is left must not size the slice.
			if r.err == nil && n > uint64(len(r.b)-r.off) {
				r.err = ErrShort
			}
			if r.err != nil {
				return nil
			}
			out := make([]any, n)
			for i := range out {
				if out[i] = d(r); r.err != nil {
					return nil
				}
			}
			return out
		}, nil
	}
	if inner, ok := unwrap(t, "FixedString"); ok {
		n, err := strconv.Atoi(inner)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad type %s", t)
		}
		return fixed(n, func(p []byte) any { return string(p) }), nil
	}
	if strings.HasPrefix(t, "DateTime64(") {
		args := strings.Split(strings.TrimSuffix(strings.TrimPrefix(t, "DateTime64("), ")"), ",")
		prec, err := strconv.Atoi(strings.TrimSpace(args[0]))
		if err != nil || prec < 0 || prec > 9 {
			return nil, fmt.Errorf("bad type %s", t)
		}
		scale := int64(math.Pow10(9 - prec))
		return fixed(8, func(p []byte) any {
			ticks := int64(binary.LittleEndian.Uint64(p))
			return time.Unix(0, 0).Add(time.Duration(ticks * scale)).UTC()
		}), nil
	}
	if t == "DateTime" || strings.HasPrefix(t, "DateTime(") {
		return fixed(4, func(p []byte) any { return time.Unix(int64(binary.LittleEndian.Uint32(p)), 0).UTC() }), nil
	}
	switch t {
	case "UInt8":
		return fixed(1, func(p []byte) any { return p[0] }), nil
	case "Bool":
		return fixed(1, func(p []byte) any { return p[0] != 0 }), nil
	case "Int8":
		return fixed(1, func(p []byte) any { return int8(p[0]) }), nil
	case "UInt16":
		return fixed(2, func(p []byte) any { return binary.LittleEndian.Uint16(p) }), nil
	case "Int16":
		return fixed(2, func(p []byte) any { return int16(binary.LittleEndian.Uint16(p)) }), nil
	case "UInt32":
		return fixed(4, func(p []byte) any { return binary.LittleEndian.Uint32(p) }), nil
	case "Int32":
		return fixed(4, func(p []byte) any { return int32(binary.LittleEndian.Uint32(p)) }), nil
	case "UInt64":
		return fixed(8, func(p []byte) any { return binary.LittleEndian.Uint64(p) }), nil
	case "Int64":
		return fixed(8, func(p []byte) any { return int64(binary.LittleEndian.Uint64(p)) }), nil
	case "Float32":
		return fixed(4, func(p []byte) any { return math.Float32frombits(binary.LittleEndian.Uint32(p)) }), nil
	case "Float64":
		return fixed(8, func(p []byte) any { return math.Float64frombits(binary.LittleEndian.Uint64(p)) }), nil
	case "UInt128", "Int128", "UInt256", "Int256":
		n := 16
		if strings.HasSuffix(t, "256") {
			n = 32
		}
		signed := t[0] == 'I'
		return fixed(n, func(p []byte) any { return bigLE(p, signed) }), nil
	case "Date":
		return fixed(2, func(p []byte) any {
			return time.Unix(int64(binary.LittleEndian.Uint16(p))*86400, 0).UTC()
		}), nil
	case "Date32":
		return fixed(4, func(p []byte) any {
			return time.Unix(int64(int32(binary.LittleEndian.Uint32(p)))*86400, 0).UTC()
		}), nil
	case "String":
		return func(r *Reader) any {
			if p := r.StrBytes(); p != nil {
				return string(p)
			}
			return nil
		}, nil
	case "UUID":
		return fixed(16, func(p []byte) any {
			// Two little-endian halves, high half first.
			var u [16]byte
			for i := 0; i < 8; i++ {
				u[i] = p[7-i]
				u[8+i] = p[15-i]
			}
			return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
		}), nil
	case "Nothing":
		return func(*Reader) any { return nil }, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

func unwrap(t, name string) (string, bool) {
	if strings.HasPrefix(t, name+"(") && strings.HasSuffix(t, ")") {
		return t[len(name)+1 : len(t)-1], true
	}
	return "", false
}
