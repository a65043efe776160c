// Package jsonrpc parses JSON-RPC 2.0 request envelopes, encodes responses,
// decodes method params strictly and maps method names to their handlers. It
// does no I/O so it can be fuzzed and reused by any transport, and the method
// packages build on it without linking the HTTP server.
package jsonrpc

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Standard JSON-RPC 2.0 codes and the server-defined range (-32000..-32099)
// this service uses.
const (
	CodeParseError      = -32700
	CodeInvalidRequest  = -32600
	CodeMethodNotFound  = -32601
	CodeInvalidParams   = -32602
	CodeInternalError   = -32603
	CodeServerError     = -32000
	CodeUnauthorized    = -32001
	CodeUnavailable     = -32002
	CodeTimeout         = -32003
	CodeNotFound        = -32004
	CodeTooManyRequests = -32029
)

// Error is a JSON-RPC error object plus the HTTP status it should travel with.
// HTTPStatus 0 means 200: Photon-compatible methods answer errors with 200,
// DAS methods pick 4xx/5xx, so the status is the caller's choice.
type Error struct {
	Code       int
	Message    string
	Data       any
	HTTPStatus int
}

func (e *Error) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// WithStatus returns a copy of e carrying the given HTTP status.
func (e *Error) WithStatus(status int) *Error {
	c := *e
	c.HTTPStatus = status
	return &c
}

// WithData returns a copy of e carrying data as the error's "data" member.
func (e *Error) WithData(data any) *Error {
	c := *e
	c.Data = data
	return &c
}

// NewError builds an error with an arbitrary code.
func NewError(code int, msg string) *Error {
	return &Error{Code: code, Message: msg}
}

// Errorf builds an error with an arbitrary code and a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ParseError is the answer to a body that is not valid JSON.
func ParseError() *Error { return &Error{Code: CodeParseError, Message: "Parse error"} }

// InvalidRequest reports an envelope that is valid JSON but not a request.
func InvalidRequest(msg string) *Error { return &Error{Code: CodeInvalidRequest, Message: msg} }

// MethodNotFound reports a method the registry does not know. The method name
// is not echoed: it is arbitrary client input.
func MethodNotFound() *Error { return &Error{Code: CodeMethodNotFound, Message: "Method not found"} }

// InvalidParams reports params that do not fit the method.
func InvalidParams(msg string) *Error { return &Error{Code: CodeInvalidParams, Message: msg} }

// MissingField is the serde-style message for an absent required field.
func MissingField(name string) *Error {
	return InvalidParams("missing field `" + name + "`")
}

// Internal is the only thing a client learns about an unexpected failure.
func Internal() *Error { return &Error{Code: CodeInternalError, Message: "Internal error"} }

// ServerError is the generic server error Photon uses for validation failures.
func ServerError(msg string) *Error { return &Error{Code: CodeServerError, Message: msg} }

// Unauthorized reports a missing or unknown api key.
func Unauthorized(msg string) *Error { return &Error{Code: CodeUnauthorized, Message: msg} }

// Unavailable reports that a dependency (the store) cannot serve right now.
func Unavailable(msg string) *Error { return &Error{Code: CodeUnavailable, Message: msg} }

// Timeout reports that the request ran out of time.
func Timeout(msg string) *Error { return &Error{Code: CodeTimeout, Message: msg} }

// NotFound reports that the requested entity does not exist.
func NotFound(msg string) *Error { return &Error{Code: CodeNotFound, Message: msg} }

// TooManyRequests reports that the caller exceeded its rate limit.
func TooManyRequests(msg string) *Error { return &Error{Code: CodeTooManyRequests, Message: msg} }

// clipLen is how much of a client's input an error message repeats.
const clipLen = 96

// Clip shortens client input quoted in an error message: a message names
// what was wrong, it does not send a megabyte back. The cut falls on a
// UTF-8 boundary and is marked with "…".
func Clip(s string) string {
	if len(s) <= clipLen {
		return s
	}
	i := clipLen
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
