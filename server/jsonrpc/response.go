package jsonrpc

import (
	"strconv"
	"unicode/utf8"

	"github.com/goccy/go-json"
)

// AppendResult appends a success response to dst. A json.RawMessage result
// is written as is (it must be valid JSON); anything else is marshalled. On a
// marshalling error dst is returned unchanged with the error.
func AppendResult(dst []byte, id json.RawMessage, result any) ([]byte, error) {
	var enc []byte
	switch r := result.(type) {
	case json.RawMessage:
		enc = r
	case nil:
		enc = nil
	default:
		b, err := json.Marshal(result)
		if err != nil {
			return dst, err
		}
		enc = b
	}
	if len(enc) == 0 {
		enc = nullJSON
	}
	dst = appendHead(dst, id)
	dst = append(dst, `"result":`...)
	dst = append(dst, enc...)
	return append(dst, '}'), nil
}

// AppendError appends an error response to dst. Data that cannot be
// marshalled is dropped rather than failing the whole answer.
func AppendError(dst []byte, id json.RawMessage, e *Error) []byte {
	if e == nil {
		e = Internal()
	}
	dst = appendHead(dst, id)
	dst = append(dst, `"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = AppendString(dst, e.Message)
	if e.Data != nil {
		if b, err := json.Marshal(e.Data); err == nil {
			dst = append(dst, `,"data":`...)
			dst = append(dst, b...)
		}
	}
	return append(dst, "}}"...)
}

var nullJSON = []byte("null")

func appendHead(dst []byte, id json.RawMessage) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if len(id) == 0 {
		dst = append(dst, nullJSON...)
	} else {
		dst = append(dst, id...)
	}
	return append(dst, ',')
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD so the
// output stays valid whatever the message was built from.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
