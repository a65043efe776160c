package asset

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/chain/core"
)

// externalData renders an external plugin's data area as the reference
// does: Binary as base64, Json as (lossy) UTF-8 text, MsgPack decoded to
// JSON text (base64 when it does not decode); then any text that parses as
// JSON is emitted as that JSON value with object keys in snake_case, and
// anything else as a string.
func externalData(schema core.CoreSchema, data []byte) any {
	var s string
	switch schema {
	case core.CoreSchemaJSON:
		s = strings.ToValidUTF8(string(data), "\uFFFD")
	case core.CoreSchemaMsgPack:
		v, err := decodeMsgPack(data)
		if err != nil {
			s = base64.StdEncoding.EncodeToString(data)
			break
		}
		return snakeKeys(v)
	default:
		s = base64.StdEncoding.EncodeToString(data)
	}
	if v, ok := parseJSONValue(s); ok {
		return snakeKeys(v)
	}
	return s
}

// parseJSONValue decodes one JSON value, numbers normalised as serde_json
// re-serialises them.
func parseJSONValue(s string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	// Anything after the value makes it invalid JSON.
	if d.More() {
		return nil, false
	}
	var extra any
	if err := d.Decode(&extra); err == nil {
		return nil, false
	}
	return normNumbers(v), true
}

func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return normNumber(string(x))
	case map[string]any:
		for k, e := range x {
			x[k] = normNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normNumbers(e)
		}
	}
	return v
}

// normNumber keeps integers that fit 64 bits and prints the rest as f64
// the way serde_json does.
func normNumber(s string) json.Number {
	if !strings.ContainsAny(s, ".eE") {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil && s != "-0" {
			return json.Number(s)
		}
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			return json.Number(s)
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return json.Number(s)
	}
	return json.Number(formatF64(f))
}

// formatF64 prints a finite float like Rust's ryu: shortest digits, a
// trailing ".0" on integers, exponent form outside 1e-5..1e16.
func formatF64(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "null"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	neg := strings.HasPrefix(e, "-")
	e = strings.TrimPrefix(e, "-")
	mant, expS, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	n := len(digits)
	kk := exp + 1 // position of the decimal point
	var out string
	switch {
	case kk >= n && kk <= 16:
		out = digits + strings.Repeat("0", kk-n) + ".0"
	case kk > 0 && kk <= 16:
		out = digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		out = "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		out = digits + "e" + strconv.Itoa(kk-1)
	default:
		out = digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// snakeKeys converts every object key to snake_case, recursively: the
// reference runs the whole plugin JSON, data included, through it.
func snakeKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[snakeCase(k)] = snakeKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = snakeKeys(e)
		}
	}
	return v
}

// snakeCase splits words on non-alphanumerics and case changes
// ("BubblegumV2" → "bubblegum_v2", "HTTPServer" → "http_server") and joins
// them lowercased with "_", following the heck crate the reference uses.
func snakeCase(s string) string {
	var b strings.Builder
	first := true
	emit := func(w string) {
		if !first {
			b.WriteByte('_')
		}
		first = false
		b.WriteString(strings.ToLower(w))
	}
	const (
		boundary = iota
		lower
		upper
	)
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		init, mode := 0, boundary
		for i, c := range word {
			size := utf8.RuneLen(c)
			if i+size >= len(word) {
				emit(word[init:])
				break
			}
			next, _ := utf8.DecodeRuneInString(word[i+size:])
			nextMode := mode
			if unicode.IsLower(c) {
				nextMode = lower
			} else if unicode.IsUpper(c) {
				nextMode = upper
			}
			switch {
			case nextMode == lower && unicode.IsUpper(next):
				emit(word[init : i+size])
				init, mode = i+size, boundary
			case mode == upper && unicode.IsUpper(c) && unicode.IsLower(next):
				emit(word[init:i])
				init, mode = i, boundary
			default:
				mode = nextMode
			}
		}
	}
	return b.String()
}

var errMsgPack = errors.New("asset: msgpack data does not map to JSON")

// decodeMsgPack decodes one MessagePack value into JSON-able Go values, as
// rmp_serde into serde_json::Value: string map keys only, no bin or ext.
func decodeMsgPack(b []byte) (any, error) {
	r := &mpReader{b: b}
	return r.value(0)
}

type mpReader struct {
	b   []byte
	off int
}

func (r *mpReader) take(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.off {
		return nil, errMsgPack
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p, nil
}

func (r *mpReader) uint(n int) (uint64, error) {
	p, err := r.take(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, x := range p {
		v = v<<8 | uint64(x)
	}
	return v, nil
}

func (r *mpReader) value(depth int) (any, error) {
	if depth > 128 {
		return nil, errMsgPack
	}
	t, err := r.uint(1)
	if err != nil {
		return nil, err
	}
	switch {
	case t <= 0x7f:
		return json.Number(strconv.FormatUint(t, 10)), nil
	case t >= 0xe0:
		return json.Number(strconv.FormatInt(int64(int8(t)), 10)), nil
	case t >= 0x80 && t <= 0x8f:
		return r.mapN(int(t&0x0f), depth)
	case t >= 0x90 && t <= 0x9f:
		return r.arrayN(int(t&0x0f), depth)
	case t >= 0xa0 && t <= 0xbf:
		return r.str(int(t & 0x1f))
	}
	switch t {
	case 0xc0:
		return nil, nil
	case 0xc2:
		return false, nil
	case 0xc3:
		return true, nil
	case 0xca:
		v, err := r.uint(4)
		if err != nil {
			return nil, err
		}
		return floatJSON(float64(math.Float32frombits(uint32(v)))), nil
	case 0xcb:
		v, err := r.uint(8)
		if err != nil {
			return nil, err
		}
		return floatJSON(math.Float64frombits(v)), nil
	case 0xcc, 0xcd, 0xce, 0xcf:
		v, err := r.uint(1 << (t - 0xcc))
		if err != nil {
			return nil, err
		}
		return json.Number(strconv.FormatUint(v, 10)), nil
	case 0xd0, 0xd1, 0xd2, 0xd3:
		n := 1 << (t - 0xd0)
		v, err := r.uint(n)
		if err != nil {
			return nil, err
		}
		// Sign-extend from n bytes.
		shift := uint(64 - 8*n)
		return json.Number(strconv.FormatInt(int64(v<<shift)>>shift, 10)), nil
	case 0xd9, 0xda, 0xdb:
		n, err := r.uint(1 << (t - 0xd9))
		if err != nil {
			return nil, err
		}
		return r.str(int(min(n, math.MaxInt32)))
	case 0xdc, 0xdd:
		n, err := r.uint(2 << (t - 0xdc))
		if err != nil {
			return nil, err
		}
		return r.arrayN(int(min(n, math.MaxInt32)), depth)
	case 0xde, 0xdf:
		n, err := r.uint(2 << (t - 0xde))
		if err != nil {
			return nil, err
		}
		return r.mapN(int(min(n, math.MaxInt32)), depth)
	}
	// bin, ext and the reserved 0xc1 have no JSON form.
	return nil, errMsgPack
}

func floatJSON(f float64) any {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	return json.Number(formatF64(f))
}

func (r *mpReader) str(n int) (any, error) {
	p, err := r.take(n)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(p) {
		return nil, errMsgPack
	}
	return string(p), nil
}

func (r *mpReader) arrayN(n, depth int) (any, error) {
	// Every element takes at least one byte.
	if n > len(r.b)-r.off {
		return nil, errMsgPack
	}
	out := make([]any, n)
	for i := range out {
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (r *mpReader) mapN(n, depth int) (any, error) {
	if n > (len(r.b)-r.off)/2 {
		return nil, errMsgPack
	}
	out := make(map[string]any, n)
	for i := 0; i < n; i++ {
		k, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		ks, ok := k.(string)
		if !ok {
			return nil, errMsgPack
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[ks] = v
	}
	return out, nil
}
