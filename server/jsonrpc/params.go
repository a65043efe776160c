package jsonrpc

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-json"
)

// DecodeParams decodes raw params into dst, a pointer to a struct whose json
// tags name the members listed in fields. It accepts a named object (members
// not in fields are rejected, serde style) or a positional array read in
// fields order. Absent or null params decode as {} so the handler's own
// required-field checks produce "missing field" errors. Null members leave
// the field untouched. dst may be nil when fields is empty. Names match json
// tags (or Go names) of dst's own fields; embedded structs are not searched.
//
// Client mistakes come back as *Error with CodeInvalidParams; a dst that does
// not match fields is a programming error and comes back as a plain error.
func DecodeParams(raw []byte, dst any, fields []string) error {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' && raw[0] != '[' {
		return InvalidParams("params must be an object or an array")
	}
	if !valid(raw) {
		return InvalidParams("params are not valid JSON")
	}
	var target reflect.Value
	var info *structInfo
	if len(fields) > 0 {
		rv := reflect.ValueOf(dst)
		if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("jsonrpc: DecodeParams needs a non-nil pointer to a struct, got %T", dst)
		}
		target = rv.Elem()
		info = structInfoFor(target.Type())
	}

	var err error
	if raw[0] == '{' {
		var seen []bool
		if len(fields) > 0 {
			seen = make([]bool, len(fields))
		}
		eachMember(raw, func(key, val []byte) bool {
			name, ok := decodeString(key)
			if !ok {
				err = InvalidParams("params are not valid JSON")
				return false
			}
			idx := indexOf(fields, name)
			if idx < 0 {
				err = InvalidParams(unknownField(name, fields))
				return false
			}
			if seen[idx] {
				err = InvalidParams("duplicate field `" + name + "`")
				return false
			}
			seen[idx] = true
			err = setField(target, info, name, val)
			return err == nil
		})
		return err
	}

	n := 0
	eachElement(raw, func([]byte) bool { n++; return true })
	if n > len(fields) {
		if len(fields) == 0 {
			return InvalidParams("invalid length " + strconv.Itoa(n) + ", expected no params")
		}
		return InvalidParams("invalid length " + strconv.Itoa(n) + ", expected at most " + strconv.Itoa(len(fields)) + " params")
	}
	i := 0
	eachElement(raw, func(val []byte) bool {
		err = setField(target, info, fields[i], val)
		i++
		return err == nil
	})
	return err
}

// unknownField reproduces serde's wording so clients that match on Photon's
// messages keep working.
func unknownField(name string, fields []string) string {
	var b strings.Builder
	b.WriteString("unknown field `")
	b.WriteString(Clip(name))
	b.WriteString("`, ")
	switch len(fields) {
	case 0:
		b.WriteString("there are no fields")
		return b.String()
	case 1:
		b.WriteString("expected `" + fields[0] + "`")
		return b.String()
	case 2:
		b.WriteString("expected `" + fields[0] + "` or `" + fields[1] + "`")
		return b.String()
	}
	b.WriteString("expected one of ")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + f + "`")
	}
	return b.String()
}

func indexOf(fields []string, name string) int {
	for i, f := range fields {
		if f == name {
			return i
		}
	}
	return -1
}

func setField(target reflect.Value, info *structInfo, name string, val []byte) error {
	if kind(val) == "null" {
		return nil
	}
	fi, ok := info.byName[name]
	if !ok {
		return fmt.Errorf("jsonrpc: %s has no field tagged %q", target.Type(), name)
	}
	fv := target.Field(fi.index)
	if !fi.custom {
		if got := kind(val); !kindFits(fi.base, got) {
			return InvalidParams("invalid type for field `" + name + "`: expected " + fi.expected + ", got " + got)
		}
	}
	if !fi.custom && kind(val) == "number" {
		// goccy silently wraps out-of-range integers, so numbers are parsed here.
		if setNumber(fv, string(val)) {
			return nil
		}
		msg := "invalid value for field `" + name + "`: expected " + fi.expected
		if len(val) <= 40 {
			msg += ", got " + string(val)
		}
		return InvalidParams(msg)
	}
	if err := json.Unmarshal(val, fv.Addr().Interface()); err != nil {
		if fi.custom {
			var je *Error
			if errors.As(err, &je) {
				return InvalidParams("invalid value for field `" + name + "`: " + je.Message)
			}
			return InvalidParams("invalid value for field `" + name + "`")
		}
		return InvalidParams("invalid value for field `" + name + "`: expected " + fi.expected)
	}
	return nil
}

// setNumber stores the JSON number tok into v (a number or pointers to one),
// reporting false when tok does not fit v's type exactly.
func setNumber(v reflect.Value, tok string) bool {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(tok, 10, v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(tok, 10, v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(tok, v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetFloat(f)
	default:
		return false
	}
	return true
}

type fieldInfo struct {
	index    int
	base     reflect.Type // field type with pointers removed
	expected string       // Rust-style type name for messages
	custom   bool         // decodes itself; its accepted JSON types are unknown
}

type structInfo struct {
	byName map[string]fieldInfo
}

var structCache sync.Map // reflect.Type -> *structInfo

func structInfoFor(t reflect.Type) *structInfo {
	if v, ok := structCache.Load(t); ok {
		return v.(*structInfo)
	}
	info := &structInfo{byName: make(map[string]fieldInfo, t.NumField())}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := f.Name
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		opts := ""
		if tag != "" {
			name, opts, _ = strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
		}
		base := f.Type
		for base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		info.byName[name] = fieldInfo{
			index:    i,
			base:     base,
			expected: typeName(base),
			custom:   decodesItself(base) || strings.Contains(opts, "string"),
		}
	}
	v, _ := structCache.LoadOrStore(t, info)
	return v.(*structInfo)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	byteSlice       = reflect.TypeFor[[]byte]()
)

func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshaler) || p.Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || p.Implements(textUnmarshaler) ||
		t.Kind() == reflect.Interface || t == byteSlice
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int8:
		return "i8"
	case reflect.Int16:
		return "i16"
	case reflect.Int32:
		return "i32"
	case reflect.Int, reflect.Int64:
		return "i64"
	case reflect.Uint8:
		return "u8"
	case reflect.Uint16:
		return "u16"
	case reflect.Uint32:
		return "u32"
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return "u64"
	case reflect.Float32:
		return "f32"
	case reflect.Float64:
		return "f64"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		elem := t.Elem()
		for elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		return "array of " + typeName(elem)
	case reflect.Map, reflect.Struct:
		return "object"
	default:
		return "any"
	}
}

func kindFits(t reflect.Type, got string) bool {
	switch t.Kind() {
	case reflect.Bool:
		return got == "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return got == "number"
	case reflect.String:
		return got == "string"
	case reflect.Slice, reflect.Array:
		return got == "array"
	case reflect.Map, reflect.Struct:
		return got == "object"
	default:
		return true
	}
}
