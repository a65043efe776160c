package photon

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// Photon's params are decoded by serde_json, and clients may match on its
// messages; these helpers reproduce the wording for the cases that matter.

// unexpected describes a JSON token the way serde's Unexpected does.
func unexpected(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "unit value"
	}
	switch c := raw[0]; {
	case c == '"':
		s, _ := unquote(raw)
		return `string ` + strconv.Quote(jsonrpc.Clip(s))
	case c == 't' || c == 'f':
		return "boolean `" + string(raw) + "`"
	case c == 'n':
		return "null"
	case c == '[':
		return "sequence"
	case c == '{':
		return "map"
	case bytes.ContainsAny(raw, ".eE"):
		return "floating point `" + jsonrpc.Clip(string(raw)) + "`"
	default:
		return "integer `" + jsonrpc.Clip(string(raw)) + "`"
	}
}

// invalidType is serde's "invalid type" error for a param of another JSON type.
func invalidType(raw []byte, expected string) *jsonrpc.Error {
	return jsonrpc.InvalidParams("invalid type: " + unexpected(raw) + ", expected " + expected)
}

// unquote decodes a JSON string token; ok is false for anything else.
func unquote(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if !bytes.ContainsRune(raw, '\\') {
		return string(raw[1 : len(raw)-1]), true
	}
	s, err := strconv.Unquote(string(raw))
	if err == nil {
		return s, true
	}
	// JSON escapes that Go's syntax lacks (\/): fall back to a JSON decode.
	var out string
	if jerr := json.Unmarshal(raw, &out); jerr != nil {
		return "", false
	}
	return out, true
}

const b58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Error is the bs58 crate's message for the first byte of s that is
// not in the alphabet, or "" when s is valid base58.
func base58Error(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "provided string contained non-ascii character starting at byte " + strconv.Itoa(i)
		}
		if !strings.ContainsRune(b58Alphabet, rune(c)) {
			return "provided string contained invalid character " + rustChar(c) + " at byte " + strconv.Itoa(i)
		}
	}
	return ""
}

// rustChar formats an ASCII byte as Rust's {:?} formats a char.
func rustChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	case '\n':
		return `'\n'`
	case '\r':
		return `'\r'`
	case '\t':
		return `'\t'`
	case 0:
		return `'\0'`
	}
	if c < 0x20 || c == 0x7f {
		return `'\u{` + strconv.FormatUint(uint64(c), 16) + `}'`
	}
	return "'" + string(rune(c)) + "'"
}

func itoa(n int) string { return strconv.Itoa(n) }
