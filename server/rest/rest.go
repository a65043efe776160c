// Package rest is what a REST endpoint's handler needs from the server,
// without the server: the read side (api/...) links no HTTP stack.
package rest

import (
	"context"
	"fmt"
	"net/http"
)

// Handler answers a REST endpoint: POST with a JSON body, behind the same
// key, rate limit, deadline and panic containment as JSON-RPC calls. It
// returns the JSON body of a 200; an *Error it returns is answered with
// its status and message, any other error as a 500 whose detail is only
// logged.
type Handler func(ctx context.Context, projectID string, body []byte) ([]byte, error)

// Error is a refusal with a status, answered {"error": Message}.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// BadRequest is a 400 with msg.
func BadRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(format, args...)}
}

// Method is how a REST endpoint is named to the Meter (its price, its
// rows in the request log): the HTTP method and path.
func Method(path string) string { return "POST " + path }
