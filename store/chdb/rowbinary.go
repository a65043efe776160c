package chdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dasch-labs/dasch/store"
)

// DecodeRowBinary decodes RowBinaryWithNamesAndTypes output into a Result
// with the value types documented on store.Result.
func DecodeRowBinary(b []byte) (*store.Result, error) {
	res := &store.Result{}
	if len(b) == 0 {
		return res, nil
	}
	r := &rbReader{b: b}
	n, err := r.uvarint()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if n > 1<<16 {
		return nil, fmt.Errorf("header: %d columns", n)
	}
	res.Columns = make([]store.Column, n)
	for i := range res.Columns {
		if res.Columns[i].Name, err = r.str(); err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
	}
	decs := make([]decoder, n)
	for i := range res.Columns {
		if res.Columns[i].Type, err = r.str(); err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
		if decs[i], err = decoderFor(res.Columns[i].Type); err != nil {
			return nil, fmt.Errorf("column %s: %w", res.Columns[i].Name, err)
		}
	}
	for r.off < len(r.b) {
		row := make([]any, n)
		for i, d := range decs {
			if row[i], err = d(r); err != nil {
				return nil, fmt.Errorf("row %d column %s: %w", len(res.Rows), res.Columns[i].Name, err)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

type rbReader struct {
	b   []byte
	off int
}

var errShort = errors.New("unexpected end of data")

func (r *rbReader) take(n int) ([]byte, error) {
	if n < 0 || r.off+n > len(r.b) {
		return nil, errShort
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p, nil
}

func (r *rbReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		return 0, errShort
	}
	r.off += n
	return v, nil
}

func (r *rbReader) str() (string, error) {
	n, err := r.uvarint()
	if err != nil {
		return "", err
	}
	if n > uint64(len(r.b)-r.off) {
		return "", errShort
	}
	p, _ := r.take(int(n))
	return string(p), nil
}

type decoder func(*rbReader) (any, error)

func fixed[T any](n int, conv func([]byte) T) decoder {
	return func(r *rbReader) (any, error) {
		p, err := r.take(n)
		if err != nil {
			return nil, err
		}
		return conv(p), nil
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
		return func(r *rbReader) (any, error) {
			p, err := r.take(1)
			if err != nil {
				return nil, err
			}
			if p[0] != 0 {
				return nil, nil
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
		return func(r *rbReader) (any, error) {
			n, err := r.uvarint()
			if err != nil {
				return nil, err
			}
			if n > uint64(len(r.b)-r.off) {
				return nil, errShort
			}
			out := make([]any, n)
			for i := range out {
				if out[i], err = d(r); err != nil {
					return nil, err
				}
			}
			return out, nil
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
		return func(r *rbReader) (any, error) { return r.str() }, nil
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
		return func(r *rbReader) (any, error) { return nil, nil }, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

func unwrap(t, name string) (string, bool) {
	if strings.HasPrefix(t, name+"(") && strings.HasSuffix(t, ")") {
		return t[len(name)+1 : len(t)-1], true
	}
	return "", false
}
