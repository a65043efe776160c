package jsonrpc

import (
	"strconv"
	"unicode/utf8"

	"github.com/goccy/go-json"
)

// MaxBatch is the largest batch accepted; bigger ones are refused whole so a
// single HTTP request cannot fan out into unbounded work.
const MaxBatch = 100

// Request is one parsed envelope. When Err is set the element is not a valid
// request and must be answered with Err; ID still holds whatever id could be
// recovered so the answer can echo it.
type Request struct {
	// ID is the id exactly as sent (string, number or null), nil when absent.
	// Keeping the raw bytes lets 1.0, 1e3 or 2^64-1 round-trip unchanged.
	ID json.RawMessage
	// Method is the unescaped method name.
	Method string
	// Params is the raw object or array, nil when absent or null.
	Params json.RawMessage
	// Err is set when this element is not a valid request.
	Err *Error
	// Notification marks a request without id: it is run, but the spec
	// forbids answering it, even with an error. An element too malformed
	// to be a request is answered (id null) whether or not it had an id.
	Notification bool
}

// Message is a parsed request body: one request, or a batch.
type Message struct {
	Batch    bool
	Requests []Request
}

// Parse parses a request body. A non-nil error means the body as a whole is
// unusable (not JSON, empty or oversized batch) and is answered once with id
// null; otherwise every element of the returned message gets its own answer.
func Parse(body []byte) (Message, *Error) {
	if !valid(body) {
		return Message{}, ParseError()
	}
	// JSON text is UTF-8 (RFC 8259); the validator above lets other bytes
	// through in strings, and an id echoed with them would make the answer
	// invalid JSON.
	if !utf8.Valid(body) {
		return Message{}, &Error{Code: CodeParseError, Message: "Parse error: the body is not valid UTF-8"}
	}
	b := trimSpace(body)
	if len(b) == 0 || b[0] != '[' {
		return Message{Requests: []Request{parseOne(b)}}, nil
	}
	n := 0
	eachElement(b, func([]byte) bool { n++; return n <= MaxBatch })
	switch {
	case n == 0:
		return Message{}, InvalidRequest("Invalid Request: empty batch")
	case n > MaxBatch:
		return Message{}, InvalidRequest("Invalid Request: batch larger than " + strconv.Itoa(MaxBatch) + " requests")
	}
	reqs := make([]Request, 0, n)
	eachElement(b, func(v []byte) bool {
		reqs = append(reqs, parseOne(v))
		return true
	})
	return Message{Batch: true, Requests: reqs}, nil
}

// parseOne validates a single envelope. Checks run id first so every later
// error can echo it, then jsonrpc, method, params.
func parseOne(v []byte) Request {
	if len(v) == 0 || v[0] != '{' {
		return Request{Err: InvalidRequest("Invalid Request: expected an object")}
	}
	var version, id, method, params []byte
	var haveVersion, haveID, haveMethod, haveParams bool
	eachMember(v, func(key, val []byte) bool {
		if len(key) < 2 {
			return false
		}
		// Names are compared on the raw token first; only escaped names decode.
		name := string(key[1 : len(key)-1])
		if containsBackslash(key) {
			name, _ = decodeString(key)
		}
		switch name {
		case "jsonrpc":
			version, haveVersion = val, true
		case "id":
			id, haveID = val, true
		case "method":
			method, haveMethod = val, true
		case "params":
			params, haveParams = val, true
		}
		return true
	})

	var r Request
	if haveID {
		switch kind(id) {
		case "string", "number", "null":
			r.ID = id
		default:
			r.Err = InvalidRequest("Invalid Request: id must be a string, a number or null")
			return r
		}
	}
	if !haveVersion {
		r.Err = InvalidRequest(`Invalid Request: missing jsonrpc, expected "2.0"`)
		return r
	}
	if s, ok := decodeString(version); !ok || s != "2.0" {
		r.Err = InvalidRequest(`Invalid Request: jsonrpc must be "2.0"`)
		return r
	}
	if !haveMethod {
		r.Err = InvalidRequest("Invalid Request: missing method")
		return r
	}
	m, ok := decodeString(method)
	if !ok {
		r.Err = InvalidRequest("Invalid Request: method must be a string")
		return r
	}
	if m == "" {
		r.Err = InvalidRequest("Invalid Request: method must not be empty")
		return r
	}
	r.Method = m
	r.Notification = !haveID
	if haveParams {
		switch kind(params) {
		case "object", "array":
			r.Params = params
		case "null":
			// Treated like an absent member: methods without params accept it.
		default:
			r.Err = InvalidParams("params must be an object or an array")
			return r
		}
	}
	return r
}

func containsBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}
