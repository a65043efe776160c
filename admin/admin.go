// Package admin is the administration service on its own listener: the
// Project usage endpoint of the specification,
// GET /v0/admin/projects/{id}/usage, the operator's key routes (keys.go)
// and the Prometheus metrics on GET /metrics.
package admin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/internal/lazylisten"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/usage"
)

// Keys resolves api keys; auth.Checker is one.
type Keys interface {
	Resolve(ctx context.Context, key string) (auth.Key, bool, error)
}

// Options configure the service. Listen, Keys, Store, Config and Meter
// are required.
type Options struct {
	Listen string
	Keys   Keys
	Store  store.Querier
	Config *billing.Config
	Meter  *usage.Meter
	// Log, when set, is flushed before a usage record is computed, so the
	// record counts every request answered before it was asked for.
	Log     *reqlog.Log
	Metrics *metrics.Registry
	Logger  *slog.Logger
	// Timeout bounds one request. Default 10s.
	Timeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Token is the operator token the key routes want (keys.go); empty
	// turns them off. KeyStore is where they write, and Forget drops a
	// revoked key from the serving memory at once.
	Token    string
	KeyStore store.ExecQuerier
	Forget   func(id string)
}

// Server is the administration service.
type Server struct {
	o   Options
	srv *http.Server

	ln *lazylisten.Listener
}

// New builds the service.
func New(o Options) (*Server, error) {
	if o.Keys == nil || o.Store == nil || o.Config == nil || o.Meter == nil {
		return nil, errors.New("admin: New needs keys, a store, a billing config and a meter")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{o: o, ln: lazylisten.New("admin", o.Listen)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second}
	return s, nil
}

// Listen binds the address; Serve calls it if it was not called.
func (s *Server) Listen() error { return s.ln.Listen() }

// Addr is the bound address, empty before Listen.
func (s *Server) Addr() string { return s.ln.Addr() }

// Serve answers until ctx ends, then lets requests in flight finish.
func (s *Server) Serve(ctx context.Context) error {
	ln, err := s.ln.Bound()
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("admin: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = s.srv.Shutdown(sctx)
	<-errc
	if err != nil {
		return fmt.Errorf("admin: shutdown: %w", err)
	}
	return nil
}

// usageRoute is how the request log names the endpoint.
const usageRoute = "GET /v0/admin/projects/{id}/usage"

// ServeHTTP routes: /metrics, and the usage endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/metrics" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method not allowed, use GET")
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		if s.o.Metrics != nil {
			s.o.Metrics.WritePrometheus(w)
		}
		return
	}
	if s.serveKeys(w, r) {
		return
	}
	id, ok := usagePath(r.URL.Path)
	if !ok {
		writeError(w, http.StatusNotFound, "unknown path; the usage endpoint is GET /v0/admin/projects/{id}/usage, the key routes /v0/admin/keys")
		return
	}
	start := s.o.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	key := s.serveUsage(rec, r, id)
	row := reqlog.Row{At: start, Method: usageRoute, HTTPStatus: uint16(rec.status), ResponseBytes: uint32(rec.n),
		BatchSize: 1, Latency: s.o.Now().Sub(start)}
	if key != nil {
		row.ProjectID, row.KeyID = key.ProjectID, key.ID
	}
	s.o.Meter.RecordAdmin(row)
}

// usagePath reads the project id of /v0/admin/projects/{id}/usage.
func usagePath(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "/v0/admin/projects/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, "/usage")
	if !ok || id == "" || strings.Contains(id, "/") {
		return "", false
	}
	return id, true
}

// serveUsage answers the usage endpoint; it returns the request's key
// once it is valid.
func (s *Server) serveUsage(w http.ResponseWriter, r *http.Request, id string) *auth.Key {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		writeError(w, http.StatusMethodNotAllowed, "method not allowed, use GET")
		return nil
	}
	raw := r.Header.Get("X-Api-Key")
	if raw == "" {
		raw = r.URL.Query().Get("api-key")
	}
	if raw == "" {
		writeError(w, http.StatusUnauthorized, "missing api key: send it in the X-Api-Key header or the api-key query parameter")
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Timeout)
	defer cancel()
	k, ok, err := s.o.Keys.Resolve(ctx, raw)
	if err != nil {
		s.o.Logger.Error("admin: api key check failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "service unavailable")
		return nil
	}
	if !ok {
		writeError(w, http.StatusUnauthorized, "invalid api key")
		return nil
	}
	// Before anything is looked up: an unknown id and another project's
	// id are answered alike, so ids cannot be probed.
	if k.ProjectID != id {
		writeError(w, http.StatusBadRequest, "the api key does not belong to the project in the path")
		return &k
	}
	if !s.o.Meter.AdmitAdmin(k.ProjectID, s.o.Now()) {
		writeError(w, http.StatusTooManyRequests, "too many requests: the admin API allows 5 requests per second per project")
		return &k
	}
	if s.o.Log != nil {
		if err := s.o.Log.Flush(ctx); err != nil {
			s.o.Logger.Error("admin: request log flush failed", "err", err)
			writeError(w, http.StatusServiceUnavailable, "service unavailable")
			return &k
		}
	}
	p, found, err := auth.GetProject(ctx, s.o.Store, id)
	if err == nil && !found {
		err = fmt.Errorf("project %s of a valid key is missing", id)
	}
	var rec billing.Record
	if err == nil {
		rec, err = usage.Report(ctx, s.o.Store, s.o.Config, p, s.o.Now())
	}
	if err != nil {
		s.o.Logger.Error("admin: usage failed", "project", id, "err", err)
		writeError(w, http.StatusServiceUnavailable, "service unavailable")
		return &k
	}
	body, err := json.Marshal(rec)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal error")
		return &k
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
	return &k
}

// writeError answers {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// recorder notes the status and size of an answer.
type recorder struct {
	http.ResponseWriter
	status, n int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	n, err := r.ResponseWriter.Write(b)
	r.n += n
	return n, err
}
