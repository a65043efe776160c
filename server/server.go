// Package server is the JSON-RPC front door: a fasthttp server that
// authenticates api keys, rate-limits them, dispatches to registered method
// handlers with a deadline, and contains handler failures.
package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/dasch-labs/dasch/internal/lazylisten"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/server/upstream"
)

// KeyChecker resolves an api key to its project. ok is false for an unknown
// key; err is for failures to find out (the store is down).
type KeyChecker interface {
	CheckKey(ctx context.Context, key string) (projectID string, ok bool, err error)
}

// MemoryKeyChecker is a KeyChecker that can also answer from memory
// alone: an address past its failed-key ration is still served for a key
// known there, and refused for any other without a lookup.
type MemoryKeyChecker interface {
	KeyChecker
	KnownKey(key string) (projectID string, ok bool)
}

// Healthy, when a Health also implements it, answers GET /health and
// /readiness in place of Ready, which then only decides whether calls
// are served: a server whose ingest fails is not ready for a load
// balancer, yet still answers from the store.
type Healthy interface {
	Healthy(ctx context.Context) error
}

// Health reports readiness for GET /health; nil means healthy.
type Health interface {
	Ready(ctx context.Context) error
}

// Config tunes the server. Zero values get the defaults below.
type Config struct {
	// Listen is the TCP address, e.g. ":8899" or "127.0.0.1:0". Default ":8899".
	Listen string
	// MaxBodyBytes caps the request body; larger bodies get HTTP 413.
	// Default 10 MiB.
	MaxBodyBytes int
	// RequestTimeout is the deadline for one HTTP request, batch included.
	// Default 10s.
	RequestTimeout time.Duration
	// RateLimitPerKey is the sustained requests per second allowed per api
	// key (each batch element counts). 0 means unlimited.
	RateLimitPerKey float64
	// RateLimitBurst is the bucket size. Default: RateLimitPerKey rounded up,
	// at least 1.
	RateLimitBurst int
	// RateLimitPerAddr is the same per client address, over every key it
	// sends, with a burst of twice the rate; 0 means unlimited. Behind a
	// proxy every client has the proxy's address: set it there instead.
	RateLimitPerAddr float64
	// ReadTimeout bounds reading one request. Default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing one response. Default 30s.
	WriteTimeout time.Duration
	// IdleTimeout bounds a keep-alive connection waiting for its next
	// request. Default 60s.
	IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for in-flight requests once
	// its context is cancelled. Default 30s.
	ShutdownTimeout time.Duration
	// BatchConcurrency is how many elements of one batch run at once.
	// Default 4.
	BatchConcurrency int
	// Logger receives errors and panics. Default slog.Default().
	Logger *slog.Logger
	// Usage, when set, is told about every call that reached a handler.
	Usage UsageRecorder
	// Meter, when set, rations and prices every call and records every
	// request (meter.go).
	Meter Meter
	// ProbeEvery, with a Health, checks it this often while serving: while
	// it fails, every call is answered -32002 Service unavailable (HTTP
	// 503) without running. 0 never checks.
	ProbeEvery time.Duration
	// CORSOrigins are the origins whose web pages may call the server
	// (Access-Control-Allow-Origin); empty allows every origin ("*").
	CORSOrigins []string
	// NoCORS answers no CORS preflight and adds no CORS header: browsers
	// then keep answers from pages of other origins.
	NoCORS bool
	// MaxAnswerBytes bounds the encoded answers of one HTTP request: once
	// a batch's answers pass it, its calls not yet started are refused
	// unrun. Default 32 MiB.
	MaxAnswerBytes int
	// MaxRequestItems bounds what one HTTP request asks for before any of
	// it runs: the sum of its calls' weights (jsonrpc.Request.Weight: a
	// call, plus the ids and other array elements it names). A request
	// past it is refused whole (413). Default 10,000.
	MaxRequestItems int
	// CompressMinBytes is the smallest JSON-RPC answer sent gzipped to a
	// client whose Accept-Encoding admits gzip. 0 (the default) never
	// compresses (see compress.go for the trade).
	CompressMinBytes int
	// Upstream, when set, answers every method the registry does not
	// know (a Solana node's getAccountInfo, getLatestBlockhash, ...)
	// instead of -32601; see package upstream.
	Upstream *upstream.Forwarder
}

const (
	defaultListen          = ":8899"
	defaultMaxBodyBytes    = 10 << 20
	defaultRequestTimeout  = 10 * time.Second
	defaultReadTimeout     = 30 * time.Second
	defaultWriteTimeout    = 30 * time.Second
	defaultIdleTimeout     = 60 * time.Second
	defaultShutdownTimeout = 30 * time.Second
	defaultBatchConc       = 4
	defaultMaxAnswerBytes  = 32 << 20
	defaultMaxRequestItems = 10_000
	// A client address may fail the key check 20 times at once, then twice
	// a second: enough for a mistyped key, not for guessing.
	failedKeyRate  = 2
	failedKeyBurst = 20
)

func (c *Config) applyDefaults() {
	if c.Listen == "" {
		c.Listen = defaultListen
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = defaultMaxBodyBytes
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = defaultRequestTimeout
	}
	if c.RateLimitPerKey > 0 && c.RateLimitBurst <= 0 {
		c.RateLimitBurst = max(1, int(math.Ceil(c.RateLimitPerKey)))
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = defaultReadTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = defaultWriteTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = defaultIdleTimeout
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = defaultShutdownTimeout
	}
	if c.BatchConcurrency <= 0 {
		c.BatchConcurrency = defaultBatchConc
	}
	if c.MaxAnswerBytes <= 0 {
		c.MaxAnswerBytes = defaultMaxAnswerBytes
	}
	if c.MaxRequestItems <= 0 {
		c.MaxRequestItems = defaultMaxRequestItems
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Server serves JSON-RPC over HTTP. Create it with New, then Listen (optional,
// to learn the address early) and Serve.
type Server struct {
	cfg  Config
	log  *slog.Logger
	reg  *jsonrpc.Registry
	keys KeyChecker
	// resolver is keys when it is a KeyResolver.
	resolver KeyResolver
	health   Health
	limiter  *limiter
	// errTooHeavy refuses a request naming n items, past MaxRequestItems.
	errTooHeavy func(n int) *jsonrpc.Error
	// addrLimiter rations calls per client address, when set.
	addrLimiter *limiter
	// failedKeys rations, per client address, requests whose key does not
	// check: past it the address is answered 429 without a lookup.
	failedKeys *limiter
	srv        *fasthttp.Server
	// errTooLarge refuses the calls of a batch past MaxAnswerBytes.
	errTooLarge *jsonrpc.Error
	bufs        sync.Pool
	// allowRPC and allowGet are the Allow headers of "/" and of the
	// probes: OPTIONS is answered too while CORS is on.
	allowRPC, allowGet string

	// base is the parent of every request context. It keeps the values of
	// Serve's context but not its cancellation, so shutdown lets in-flight
	// requests finish.
	base context.Context

	// down is set while the last health probe failed (ProbeEvery).
	down atomic.Bool

	ln     *lazylisten.Listener
	mu     sync.Mutex // guards served and base, and rest until Serve
	served bool
	// rest are the REST endpoints by path (HandleREST); read only once
	// served.
	rest map[string]RESTHandler
}

// New builds a server. keys is required; health may be nil (always ready).
func New(cfg Config, reg *jsonrpc.Registry, keys KeyChecker, health Health) (*Server, error) {
	if reg == nil || keys == nil {
		return nil, errors.New("server: New needs a registry and a key checker")
	}
	if cfg.RateLimitPerKey < 0 || math.IsNaN(cfg.RateLimitPerKey) || math.IsInf(cfg.RateLimitPerKey, 0) {
		return nil, fmt.Errorf("server: invalid RateLimitPerKey %v", cfg.RateLimitPerKey)
	}
	if cfg.RateLimitPerAddr < 0 || math.IsNaN(cfg.RateLimitPerAddr) || math.IsInf(cfg.RateLimitPerAddr, 0) {
		return nil, fmt.Errorf("server: invalid RateLimitPerAddr %v", cfg.RateLimitPerAddr)
	}
	cfg.applyDefaults()
	s := &Server{
		cfg:    cfg,
		log:    cfg.Logger,
		reg:    reg,
		keys:   keys,
		health: health,
		ln:     lazylisten.New("server", cfg.Listen),
		base:   context.Background(),
	}
	s.resolver, _ = keys.(KeyResolver)
	s.errTooLarge = jsonrpc.InvalidRequest("Request too large: the answers of this batch passed " +
		byteSize(cfg.MaxAnswerBytes) + " before this call ran; send it in a smaller batch").
		WithStatus(fasthttp.StatusRequestEntityTooLarge)
	s.errTooHeavy = func(n int) *jsonrpc.Error {
		return jsonrpc.InvalidRequest(fmt.Sprintf("Request too large: its calls name %d items (calls, ids and other "+
			"list elements) and one request may name at most %d; send it in smaller requests", n, cfg.MaxRequestItems)).
			WithStatus(fasthttp.StatusRequestEntityTooLarge)
	}
	s.allowRPC, s.allowGet = "POST", "GET, HEAD"
	if !cfg.NoCORS {
		s.allowRPC, s.allowGet = s.allowRPC+", OPTIONS", s.allowGet+", OPTIONS"
	}
	if cfg.RateLimitPerKey > 0 {
		s.limiter = newLimiter(cfg.RateLimitPerKey, cfg.RateLimitBurst)
	}
	if cfg.RateLimitPerAddr > 0 {
		s.addrLimiter = newLimiter(cfg.RateLimitPerAddr, max(1, int(math.Ceil(2*cfg.RateLimitPerAddr))))
	}
	s.failedKeys = newLimiter(failedKeyRate, failedKeyBurst)
	s.srv = &fasthttp.Server{
		Handler:               s.route,
		ErrorHandler:          s.transportError,
		HeaderReceived:        s.headerReceived,
		MaxRequestBodySize:    cfg.MaxBodyBytes,
		ReadTimeout:           cfg.ReadTimeout,
		WriteTimeout:          cfg.WriteTimeout,
		IdleTimeout:           cfg.IdleTimeout,
		NoDefaultServerHeader: true,
		CloseOnShutdown:       true,
		Logger:                fasthttpLogger{cfg.Logger},
	}
	return s, nil
}

// Listen binds the configured address. Serve calls it when it was not called
// before; calling it first makes Addr known (useful with port 0).
func (s *Server) Listen() error { return s.ln.Listen() }

// Addr is the bound address ("127.0.0.1:41234"), empty before Listen.
func (s *Server) Addr() string { return s.ln.Addr() }

// Serve answers requests until ctx is cancelled, then stops accepting, lets
// in-flight requests finish (up to ShutdownTimeout) and returns nil. It can
// be called once.
func (s *Server) Serve(ctx context.Context) error {
	ln, err := s.ln.Bound()
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.served {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.served = true
	s.base = context.WithoutCancel(ctx)
	s.mu.Unlock()

	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(ln) }()
	if s.health != nil && s.cfg.ProbeEvery > 0 {
		go s.probe(ctx)
	}

	select {
	case err := <-errc:
		_ = ln.Close()
		if err == nil {
			err = errors.New("server: stopped unexpectedly")
		}
		return fmt.Errorf("server: serve: %w", err)
	case <-ctx.Done():
	}

	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err = s.srv.ShutdownWithContext(sctx)
	// fasthttp only closes listeners it has registered; if Serve had not got
	// that far yet, closing ours is what makes it return.
	_ = ln.Close()
	<-errc
	if err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}

// route dispatches on path and HTTP method. /liveness and /readiness are
// the probes Photon deployments use: the process answers, and the store
// answers (as /health).
func (s *Server) route(rc *fasthttp.RequestCtx) {
	rc.SetContentType("application/json")
	switch string(rc.Path()) {
	case "/":
		if s.cors(rc, s.allowRPC) {
			return
		}
		if !rc.IsPost() {
			rc.Response.Header.Set(fasthttp.HeaderAllow, s.allowRPC)
			s.writeError(rc, jsonrpc.InvalidRequest("HTTP method not allowed, use POST").WithStatus(fasthttp.StatusMethodNotAllowed))
			return
		}
		s.serveRPC(rc)
	case "/health", "/readiness":
		if s.getOnly(rc) {
			s.serveHealth(rc)
		}
	case "/liveness":
		if s.getOnly(rc) {
			rc.SetBodyString(statusOK)
		}
	default:
		if h, ok := s.rest[string(rc.Path())]; ok {
			s.serveREST(rc, h)
			return
		}
		if !rc.IsOptions() { // the page may read the error
			s.cors(rc, "")
		}
		// The path is named so a client that only shows the message (one
		// that drops non-2xx bodies shows nothing at all) tells a wrong
		// URL from a missing asset; the query string, which may carry the
		// key, is left out.
		msg := "Unknown path: " + strconv.Quote(string(rc.Path())) + "; JSON-RPC is served on POST /"
		s.writeError(rc, jsonrpc.NotFound(msg).WithStatus(fasthttp.StatusNotFound))
	}
}

// probe checks health every ProbeEvery until ctx ends, setting down
// while it fails.
func (s *Server) probe(ctx context.Context) {
	t := time.NewTicker(s.cfg.ProbeEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, min(s.cfg.RequestTimeout, s.cfg.ProbeEvery*4))
		err := s.health.Ready(pctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if was := s.down.Swap(err != nil); was != (err != nil) {
			if err != nil {
				s.log.Error("store unavailable: calls are answered -32002 until it answers", "err", err)
			} else {
				s.log.Info("store available again")
			}
		}
	}
}

// statusOK is the body of a probe that finds nothing wrong.
const statusOK = `{"status":"ok"}`

// getOnly reports whether a probe's request is one to serve (GET or
// HEAD); other methods are answered here: a CORS preflight, or 405.
func (s *Server) getOnly(rc *fasthttp.RequestCtx) bool {
	if s.cors(rc, s.allowGet) {
		return false
	}
	if !rc.IsGet() && !rc.IsHead() {
		rc.Response.Header.Set(fasthttp.HeaderAllow, s.allowGet)
		s.writeError(rc, jsonrpc.InvalidRequest("HTTP method not allowed, use GET").WithStatus(fasthttp.StatusMethodNotAllowed))
		return false
	}
	return true
}

func (s *Server) serveHealth(rc *fasthttp.RequestCtx) {
	if s.health == nil {
		rc.SetBodyString(statusOK)
		return
	}
	ctx, cancel := context.WithTimeout(s.base, s.cfg.RequestTimeout)
	defer cancel()
	check := s.health.Ready
	if h, ok := s.health.(Healthy); ok {
		check = h.Healthy
	}
	if err := check(ctx); err != nil {
		rc.SetStatusCode(fasthttp.StatusServiceUnavailable)
		body := append([]byte(`{"status":"unavailable","error":`), jsonrpc.AppendString(nil, err.Error())...)
		rc.SetBody(append(body, '}'))
		return
	}
	rc.SetBodyString(statusOK)
}

// transportError answers requests fasthttp could not read, so even those get
// a JSON-RPC body.
func (s *Server) transportError(rc *fasthttp.RequestCtx, err error) {
	rc.SetContentType("application/json")
	var small *fasthttp.ErrSmallBuffer
	var nerr net.Error
	e := jsonrpc.InvalidRequest("malformed HTTP request").WithStatus(fasthttp.StatusBadRequest)
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge) && s.headerReceived(&rc.Request.Header).MaxRequestBodySize > 0:
		e = jsonrpc.InvalidRequest(fmt.Sprintf("request body too large for a key this server does not know: "+
			"at most %d KiB is read before the key is checked", unknownKeyBody>>10)).WithStatus(fasthttp.StatusRequestEntityTooLarge)
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		e = jsonrpc.InvalidRequest("request body too large").WithStatus(fasthttp.StatusRequestEntityTooLarge)
	case errors.As(err, &small):
		e = jsonrpc.InvalidRequest("request headers too large").WithStatus(fasthttp.StatusRequestHeaderFieldsTooLarge)
	case errors.As(err, &nerr) && nerr.Timeout():
		e = jsonrpc.InvalidRequest("request timeout").WithStatus(fasthttp.StatusRequestTimeout)
	}
	s.writeError(rc, e)
}

// unknownKeyBody is the most of a body read for a request whose key is
// not known in memory: such a request is refused or looked up, and a
// flood of them must not cost the body's reading (up to MaxBodyBytes).
const unknownKeyBody = 64 << 10

// headerReceived bounds the body of a request whose key the checker does
// not know from memory, before the body is read. A checker that cannot
// answer from memory leaves every body at MaxBodyBytes.
func (s *Server) headerReceived(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	// A body announced within the bound needs no look at the key here:
	// the handler checks it anyway, and most requests are small.
	if n := h.ContentLength(); n >= 0 && n <= unknownKeyBody {
		return fasthttp.RequestConfig{}
	}
	if !s.canKnow() || s.knownFromHeader(h) || s.cfg.MaxBodyBytes <= unknownKeyBody {
		return fasthttp.RequestConfig{}
	}
	return fasthttp.RequestConfig{MaxRequestBodySize: unknownKeyBody}
}

// canKnow reports whether the key checker answers from memory.
func (s *Server) canKnow() bool {
	if s.resolver != nil {
		return true
	}
	_, ok := s.keys.(MemoryKeyChecker)
	return ok
}

// knownFromHeader reports whether the request's key (query string or
// X-Api-Key) is known in memory; the URI is not parsed yet.
func (s *Server) knownFromHeader(h *fasthttp.RequestHeader) bool {
	// The query's key first, as apiKey reads them.
	var key []byte
	if uri := h.RequestURI(); bytes.IndexByte(uri, '?') >= 0 {
		args := fasthttp.AcquireArgs()
		defer fasthttp.ReleaseArgs(args)
		_, query, _ := bytes.Cut(uri, []byte{'?'})
		args.ParseBytes(query)
		key = args.Peek("api-key")
	}
	if len(key) == 0 {
		key = h.Peek("X-Api-Key")
	}
	if len(key) == 0 || len(key) > maxKeyLen {
		return false
	}
	_, ok := s.knownKey(string(key))
	return ok
}

// writeError answers with a single error, id null.
func (s *Server) writeError(rc *fasthttp.RequestCtx, e *jsonrpc.Error) {
	rc.SetStatusCode(statusOf(e))
	rc.SetBody(jsonrpc.AppendError(nil, nil, e))
}

func statusOf(e *jsonrpc.Error) int {
	if e == nil || e.HTTPStatus == 0 {
		return fasthttp.StatusOK
	}
	return e.HTTPStatus
}

// fasthttpLogger routes fasthttp's own messages (accept errors and the like)
// into the structured log.
type fasthttpLogger struct{ l *slog.Logger }

func (f fasthttpLogger) Printf(format string, args ...any) {
	f.l.Warn(RedactKeys(fmt.Sprintf(format, args...)), "component", "fasthttp")
}

// keyParam matches an API key in a query string or a header line, as
// fasthttp quotes unparsable requests whole in its messages.
var keyParam = regexp.MustCompile(`(?i)(api[-_]key(?:=|:\s*))[^&\s"'\\]*`)

// RedactKeys replaces every API key value in s, so no log line carries
// one.
func RedactKeys(s string) string {
	return keyParam.ReplaceAllString(s, "${1}REDACTED")
}

// byteSize is n bytes in MiB when it is a whole number of them.
func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}
