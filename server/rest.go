package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/server/rest"
)

// RESTHandler, RESTError and BadRequest are package rest's, named here
// for the server's callers.
type (
	RESTHandler = rest.Handler
	RESTError   = rest.Error
)

// BadRequest is rest.BadRequest.
func BadRequest(format string, args ...any) *RESTError { return rest.BadRequest(format, args...) }

// HandleREST serves h on POST path. Call it before Serve; paths of the
// server itself (/, /health, ...) cannot be taken.
func (s *Server) HandleREST(path string, h RESTHandler) error {
	switch path {
	case "/", "/health", "/readiness", "/liveness":
		return fmt.Errorf("server: %s is served by the server itself", path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served {
		return errors.New("server: HandleREST after Serve")
	}
	if s.rest == nil {
		s.rest = map[string]RESTHandler{}
	}
	s.rest[path] = h
	return nil
}

// restError answers a REST refusal.
func restError(rc *fasthttp.RequestCtx, status int, msg string) {
	rc.SetStatusCode(status)
	body := append([]byte(`{"error":`), jsonrpc.AppendString(nil, msg)...)
	rc.SetBody(append(body, '}'))
}

// RESTMethod is rest.Method.
func RESTMethod(path string) string { return rest.Method(path) }

// serveREST runs a REST handler behind the checks JSON-RPC calls pass,
// and tells the Meter of every request that reaches it.
func (s *Server) serveREST(rc *fasthttp.RequestCtx, h RESTHandler) {
	if s.cors(rc, s.allowRPC) {
		return
	}
	start := time.Now()
	path := string(rc.Path())
	body := bytes.Clone(rc.PostBody())
	var key *Key
	ran := false
	if meter := s.cfg.Meter; meter != nil {
		defer func() {
			e := Entry{At: start, Key: key, Ran: ran, HTTPStatus: rc.Response.StatusCode(), RequestBytes: len(body),
				ResponseBytes: len(rc.Response.Body()), BatchSize: 1, Latency: time.Since(start)}
			if key != nil {
				e.Method = RESTMethod(path)
			}
			meter.Record(&e)
		}()
	}
	if !rc.IsPost() {
		rc.Response.Header.Set(fasthttp.HeaderAllow, s.allowRPC)
		restError(rc, fasthttp.StatusMethodNotAllowed, "HTTP method not allowed, use POST")
		return
	}
	apiKey := apiKey(rc)
	if len(apiKey) == 0 {
		restError(rc, fasthttp.StatusUnauthorized, errMissingKey.Message)
		return
	}
	if len(apiKey) > maxKeyLen {
		restError(rc, fasthttp.StatusUnauthorized, errInvalidKey.Message)
		return
	}
	ctx, cancel := context.WithTimeout(s.base, s.cfg.RequestTimeout)
	defer cancel()
	addr := rc.RemoteIP().String()
	var k Key
	var ok bool
	var err error
	if s.failedKeys.exhausted(addr, time.Now()) {
		if k, ok = s.knownKey(string(apiKey)); !ok {
			restError(rc, fasthttp.StatusTooManyRequests, errTooManyFailures.Message)
			return
		}
	} else {
		k, ok, err = s.checkKey(ctx, string(apiKey))
	}
	switch {
	case err != nil:
		s.log.Error("api key check failed", "err", err)
		restError(rc, fasthttp.StatusServiceUnavailable, errUnavailable.Message)
		return
	case !ok:
		s.failedKeys.allow(addr, time.Now())
		restError(rc, fasthttp.StatusUnauthorized, errInvalidKey.Message)
		return
	}
	key = &k
	if s.down.Load() {
		restError(rc, fasthttp.StatusServiceUnavailable, errUnavailable.Message)
		return
	}
	if s.limiter != nil && !s.limiter.allow(string(apiKey), time.Now()) {
		restError(rc, fasthttp.StatusTooManyRequests, errTooMany.Message)
		return
	}
	if meter := s.cfg.Meter; meter != nil {
		if e := meter.Admit(&k, RESTMethod(path), time.Now()); e != nil {
			restError(rc, statusOf(e), e.Message)
			return
		}
	}
	ran = true
	out, err := s.runREST(ctx, h, k.ProjectID, body, path)
	var re *RESTError
	switch {
	case err == nil:
		rc.SetStatusCode(fasthttp.StatusOK)
		rc.SetBody(out)
	case errors.As(err, &re):
		restError(rc, re.Status, re.Message)
	case ctx.Err() != nil:
		restError(rc, fasthttp.StatusGatewayTimeout, errTimeout.Message)
	default:
		if !errors.Is(err, errPanicked) {
			s.log.Error("REST handler failed", "path", path, "err", err)
		}
		restError(rc, fasthttp.StatusInternalServerError, "Internal error")
	}
}

// runREST calls h, turning a panic into an error.
func (s *Server) runREST(ctx context.Context, h RESTHandler, project string, body []byte, path string) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("REST handler panicked", "path", path, "panic", p, "stack", string(debug.Stack()))
			out, err = nil, errPanicked
		}
	}()
	return h(ctx, project, body)
}
