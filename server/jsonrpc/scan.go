package jsonrpc

import (
	stdjson "encoding/json"

	"github.com/goccy/go-json"
)

// The helpers below walk JSON that encoding/json.Valid has already accepted.
// Walking the raw bytes (instead of decoding into maps) keeps member names
// case-sensitive, keeps values byte-exact and avoids allocations. They stay
// in bounds on any input so a bug elsewhere cannot turn into a panic.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func trimSpace(b []byte) []byte {
	i := skipSpace(b, 0)
	j := len(b)
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// stringEnd returns the index just past the string that starts at b[i] == '"'.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the index just past the value that starts at b[i].
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	default:
		j := i
		for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
			j++
		}
		return j
	}
}

// eachMember calls fn with every member of the object obj (obj[0] == '{').
// key is the raw string token including quotes. fn returns false to stop.
func eachMember(obj []byte, fn func(key, val []byte) bool) {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := stringEnd(obj, i)
		key := obj[i:kEnd]
		i = skipSpace(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		vEnd := valueEnd(obj, i)
		if !fn(key, obj[i:vEnd]) {
			return
		}
		i = skipSpace(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i = skipSpace(obj, i+1)
	}
}

// eachElement calls fn with every element of the array arr (arr[0] == '[').
func eachElement(arr []byte, fn func(val []byte) bool) {
	i := skipSpace(arr, 1)
	if i >= len(arr) || arr[i] == ']' {
		return
	}
	for i < len(arr) {
		vEnd := valueEnd(arr, i)
		if vEnd == i || !fn(arr[i:vEnd]) {
			return
		}
		i = skipSpace(arr, vEnd)
		if i >= len(arr) || arr[i] != ',' {
			return
		}
		i = skipSpace(arr, i+1)
	}
}

// decodeString turns a raw string token into its Go value; escapes are rare
// in member names and methods, so only they pay for a real decode.
func decodeString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", false
	}
	inner := tok[1 : len(tok)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			if err := json.Unmarshal(tok, &s); err != nil {
				return "", false
			}
			return s, true
		}
	}
	return string(inner), true
}

// valid is the gate in front of the walkers. encoding/json's scanner is the
// reference for what JSON is; goccy's Valid decodes into interface{} which
// costs far more for the same answer.
func valid(b []byte) bool { return stdjson.Valid(b) }

// kind names the JSON type of the value token v.
func kind(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
