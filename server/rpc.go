package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/dasch-labs/dasch/internal/slotnote"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// Errors the server itself produces. Protocol errors (parse, invalid
// request, unknown method) travel with HTTP 200 like Photon's; the rest carry
// a status that matches what went wrong.
var (
	errMissingKey  = jsonrpc.Unauthorized("Unauthorized: missing api-key").WithStatus(fasthttp.StatusUnauthorized)
	errInvalidKey  = jsonrpc.Unauthorized("Unauthorized: invalid api-key").WithStatus(fasthttp.StatusUnauthorized)
	errUnavailable = jsonrpc.Unavailable("Service unavailable").WithStatus(fasthttp.StatusServiceUnavailable)
	errTooMany     = jsonrpc.TooManyRequests("Too many requests").WithStatus(fasthttp.StatusTooManyRequests)
	// errTooManyFailures answers an address that failed the key check too
	// often, before its key is looked up.
	errTooManyFailures = jsonrpc.TooManyRequests("Too many requests: too many invalid api-keys from this address").
				WithStatus(fasthttp.StatusTooManyRequests)
	errTimeout  = jsonrpc.Timeout("Gateway timeout").WithStatus(fasthttp.StatusGatewayTimeout)
	errInternal = jsonrpc.Internal().WithStatus(fasthttp.StatusInternalServerError)
)

// maxKeyLen rejects absurd keys without a store round trip.
const maxKeyLen = 256

// outcome is the answer to one request: its error, or its result encoded
// as soon as the call returns, so a batch holds bytes, not results. The
// rest is for the Meter.
type outcome struct {
	enc []byte
	err *jsonrpc.Error

	ran     bool
	done    time.Time
	size    int
	slot    uint64
	hasSlot bool
}

// apiKey is the request's key: the api-key query parameter, else the
// X-Api-Key header.
func apiKey(rc *fasthttp.RequestCtx) []byte {
	if k := rc.QueryArgs().Peek("api-key"); len(k) > 0 {
		return k
	}
	return rc.Request.Header.Peek("X-Api-Key")
}

func (s *Server) serveRPC(rc *fasthttp.RequestCtx) {
	start := time.Now()
	// fasthttp reuses the body buffer once this function returns, and a
	// handler that ignores its deadline may still be reading its params.
	body := bytes.Clone(rc.PostBody())

	// The key is checked before the body is parsed: a request without a
	// valid key costs no more than parsing a small body (to echo its ids).
	key := apiKey(rc)
	if len(key) == 0 {
		s.refuse(rc, body, errMissingKey, start)
		return
	}
	if len(key) > maxKeyLen {
		s.refuse(rc, body, errInvalidKey, start)
		return
	}
	apiKey := string(key)
	addr := rc.RemoteIP().String()

	ctx, cancel := context.WithTimeout(s.base, s.cfg.RequestTimeout)
	defer cancel()

	var k Key
	var ok bool
	var err error
	if s.failedKeys.exhausted(addr, time.Now()) {
		// Past its ration of failed keys, an address is served only for
		// keys known in memory: no lookup, whatever it sends.
		if k, ok = s.knownKey(apiKey); !ok {
			s.refuse(rc, body, errTooManyFailures, start)
			return
		}
	} else {
		k, ok, err = s.checkKey(ctx, apiKey)
	}
	if err != nil {
		s.log.Error("api key check failed", "err", err)
		s.refuse(rc, body, errUnavailable, start)
		return
	}
	if !ok {
		s.failedKeys.allow(addr, time.Now())
		s.refuse(rc, body, errInvalidKey, start)
		return
	}
	meter := s.cfg.Meter
	msg, perr := jsonrpc.Parse(body)
	if perr != nil {
		s.writeError(rc, perr)
		if meter != nil {
			s.recordOne(rc, &k, body, perr, start)
		}
		return
	}

	reqs := msg.Requests
	out := make([]outcome, len(reqs))
	todo := make([]int, 0, len(reqs))
	now := time.Now()
	weight := 0
	for i := range reqs {
		weight += reqs[i].Weight()
	}
	var heavy *jsonrpc.Error
	if weight > s.cfg.MaxRequestItems {
		heavy = s.errTooHeavy(weight)
	}
	for i := range reqs {
		switch {
		case heavy != nil:
			// Refused whole, before any of it runs or is rationed.
			out[i].err = heavy
		case reqs[i].Err != nil:
			out[i].err = reqs[i].Err
		case s.down.Load():
			out[i].err = errUnavailable
		case s.addrLimiter != nil && !s.addrLimiter.allow(addr, now):
			out[i].err = errTooMany
		case s.limiter != nil && !s.limiter.allow(apiKey, now):
			out[i].err = errTooMany
		default:
			if meter != nil {
				if _, known := s.reg.Lookup(reqs[i].Method); known {
					if e := meter.Admit(&k, reqs[i].Method, now); e != nil {
						out[i].err = e
						continue
					}
				}
			}
			todo = append(todo, i)
		}
	}
	if !msg.Batch && len(todo) == 1 && s.forwarded(&reqs[0]) {
		s.stream(rc, msg, out)
		if meter != nil {
			s.record(&k, msg, out, len(body), start)
		}
		return
	}
	if len(todo) == 1 {
		out[todo[0]] = s.answer(ctx, k.ProjectID, &reqs[todo[0]])
	} else if len(todo) > 1 {
		sem := make(chan struct{}, s.cfg.BatchConcurrency)
		var wg sync.WaitGroup
		var spent atomic.Int64
		for _, i := range todo {
			sem <- struct{}{}
			// Past the budget, the calls left are refused before they run:
			// the answers so far bound the work and memory of the request.
			if spent.Load() > int64(s.cfg.MaxAnswerBytes) {
				out[i].err = s.errTooLarge
				<-sem
				continue
			}
			wg.Go(func() {
				defer func() { <-sem }()
				out[i] = s.answer(ctx, k.ProjectID, &reqs[i])
				spent.Add(int64(len(out[i].enc)))
			})
		}
		wg.Wait()
	}
	s.writeOutcomes(rc, msg, out)
	if meter != nil {
		s.record(&k, msg, out, len(body), start)
	}
}

// checkKey resolves key, with a KeyResolver when the server has one.
func (s *Server) checkKey(ctx context.Context, key string) (Key, bool, error) {
	if s.resolver != nil {
		return s.resolver.ResolveKey(ctx, key)
	}
	pid, ok, err := s.keys.CheckKey(ctx, key)
	return Key{ProjectID: pid}, ok, err
}

// knownKey resolves key from memory alone, if the checker can.
func (s *Server) knownKey(key string) (Key, bool) {
	if s.resolver != nil {
		return s.resolver.KnownResolvedKey(key)
	}
	if mk, ok := s.keys.(MemoryKeyChecker); ok {
		pid, ok := mk.KnownKey(key)
		return Key{ProjectID: pid}, ok
	}
	return Key{}, false
}

// record tells the Meter of every request of msg.
func (s *Server) record(k *Key, msg jsonrpc.Message, out []outcome, bodyLen int, start time.Time) {
	end := time.Now()
	for i := range out {
		o := &out[i]
		r := &msg.Requests[i]
		e := Entry{At: start, Key: k, Ran: o.ran, RequestBytes: bodyLen, ResponseBytes: o.size,
			BatchSize: len(out), Slot: o.slot, HasSlot: o.hasSlot, HTTPStatus: fasthttp.StatusOK}
		if r.Err == nil {
			if _, known := s.reg.Lookup(r.Method); known {
				e.Method = r.Method
			}
		}
		if o.err != nil {
			e.Code, e.HTTPStatus = o.err.Code, statusOf(o.err)
		}
		done := end
		if o.ran {
			done = o.done
		}
		e.Latency = done.Sub(start)
		s.cfg.Meter.Record(&e)
	}
}

// recordOne tells the Meter of an HTTP request answered with e whole.
func (s *Server) recordOne(rc *fasthttp.RequestCtx, k *Key, body []byte, e *jsonrpc.Error, start time.Time) {
	s.cfg.Meter.Record(&Entry{At: start, Key: k, HTTPStatus: rc.Response.StatusCode(), Code: e.Code,
		RequestBytes: len(body), ResponseBytes: len(rc.Response.Body()), BatchSize: 1, Latency: time.Since(start)})
}

// answer runs one request and encodes its result; notifications are run
// and not encoded.
func (s *Server) answer(ctx context.Context, project string, r *jsonrpc.Request) outcome {
	if s.forwarded(r) {
		return s.forward(r)
	}
	var note *slotnote.Note
	if s.cfg.Meter != nil {
		note = new(slotnote.Note)
		ctx = slotnote.With(ctx, note)
	}
	res, ran, err := s.call(ctx, project, r)
	o := outcome{ran: ran}
	if note != nil {
		o.slot, o.hasSlot = note.Slot()
	}
	switch {
	case err != nil:
		o.err = err
	case r.Notification:
	default:
		enc, eerr := jsonrpc.AppendResult(nil, r.ID, res)
		if eerr != nil {
			s.log.Error("encoding result failed", "method", r.Method, "err", eerr)
			o.err = errInternal
		} else {
			o.enc = enc
		}
	}
	if s.cfg.Meter != nil {
		o.done = time.Now()
	}
	return o
}

// refuseParseMax is the largest body a refused request is parsed for, to
// answer each of its ids; a larger one is answered once, with id null.
const refuseParseMax = 64 << 10

// refuse answers a request that is not run (no key, a bad key, keys
// unavailable) with e. The Meter is told once, of the HTTP request.
func (s *Server) refuse(rc *fasthttp.RequestCtx, body []byte, e *jsonrpc.Error, start time.Time) {
	if len(body) > refuseParseMax {
		s.writeError(rc, e)
	} else {
		msg, _ := jsonrpc.Parse(body)
		s.failAll(rc, msg, e)
	}
	if s.cfg.Meter != nil {
		s.recordOne(rc, nil, body, e, start)
	}
}

// failAll answers every request of msg with e, echoing ids when the body
// parsed, or once with id null when it did not. Notifications are
// answered too: nothing was run, and the HTTP status (401, 503) is the
// only way the client learns why.
func (s *Server) failAll(rc *fasthttp.RequestCtx, msg jsonrpc.Message, e *jsonrpc.Error) {
	if len(msg.Requests) == 0 {
		s.writeError(rc, e)
		return
	}
	out := make([]outcome, len(msg.Requests))
	reqs := slices.Clone(msg.Requests)
	for i := range out {
		out[i].err = e
		reqs[i].Notification = false
	}
	s.writeOutcomes(rc, jsonrpc.Message{Batch: msg.Batch, Requests: reqs}, out)
}

// call runs one request's handler; ran reports that there was one.
func (s *Server) call(ctx context.Context, project string, r *jsonrpc.Request) (_ any, ran bool, _ *jsonrpc.Error) {
	h, ok := s.reg.Lookup(r.Method)
	if !ok {
		return nil, false, jsonrpc.MethodNotFound()
	}
	c := &jsonrpc.Call{Method: r.Method, Params: r.Params, ProjectID: project, ID: r.ID}
	res, err := s.invoke(ctx, h, c)
	if s.cfg.Usage != nil {
		s.cfg.Usage.Record(project, r.Method, err == nil)
	}
	if err != nil {
		return nil, true, s.toRPCError(c, err)
	}
	return res, true, nil
}

// errPanicked marks a recovered panic; the stack was logged where it happened.
var errPanicked = errors.New("handler panicked")

// invoke runs h in its own goroutine so the deadline holds even for a
// handler that ignores ctx; such a handler keeps running in the background
// until it returns, and its late result is dropped.
func (s *Server) invoke(ctx context.Context, h jsonrpc.Handler, c *jsonrpc.Call) (any, error) {
	type ret struct {
		v   any
		err error
	}
	ch := make(chan ret, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("handler panic", "method", c.Method, "project", c.ProjectID,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				ch <- ret{err: errPanicked}
			}
		}()
		v, err := h(ctx, c)
		ch <- ret{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		// A result that raced the deadline still wins.
		select {
		case r := <-ch:
			return r.v, r.err
		default:
			return nil, ctx.Err()
		}
	}
}

func (s *Server) toRPCError(c *jsonrpc.Call, err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	switch {
	case errors.As(err, &je):
		return je
	case errors.Is(err, context.DeadlineExceeded):
		return errTimeout
	case errors.Is(err, errPanicked):
		return errInternal
	}
	s.log.Error("handler failed", "method", c.Method, "project", c.ProjectID, "err", err)
	return errInternal
}

// bufMax keeps one huge response from pinning memory in the pool.
const bufMax = 1 << 20

func (s *Server) writeOutcomes(rc *fasthttp.RequestCtx, msg jsonrpc.Message, out []outcome) {
	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	buf := (*bp)[:0]
	if msg.Batch {
		buf = append(buf, '[')
	}
	answered := out[:0:0]
	for i := range out {
		// Notifications get no answer (JSON-RPC 2.0, section 4.1).
		if msg.Requests[i].Notification {
			continue
		}
		if len(answered) > 0 {
			buf = append(buf, ',')
		}
		n := len(buf)
		buf = s.appendOutcome(buf, msg.Requests[i], &out[i])
		out[i].size = len(buf) - n
		answered = append(answered, out[i])
	}
	if msg.Batch {
		buf = append(buf, ']')
	}
	if len(answered) == 0 {
		// Nothing to answer: no body at all, not an empty array (section 6).
		noContent(rc)
	} else {
		rc.SetStatusCode(batchStatus(answered))
		s.setBody(rc, buf)
	}
	if cap(buf) <= bufMax {
		*bp = buf
		s.bufs.Put(bp)
	}
}

// appendOutcome appends o's encoded answer.
func (s *Server) appendOutcome(buf []byte, r jsonrpc.Request, o *outcome) []byte {
	if o.err == nil {
		return append(buf, o.enc...)
	}
	return jsonrpc.AppendError(buf, r.ID, o.err)
}

// batchStatus is the status of a single answer, and for a batch the status
// every element agrees on (so a fully rate-limited batch is a 429), else 200.
func batchStatus(out []outcome) int {
	status := -1
	for _, o := range out {
		st := fasthttp.StatusOK
		if o.err != nil {
			st = statusOf(o.err)
		}
		if status != -1 && st != status {
			return fasthttp.StatusOK
		}
		status = st
	}
	if status == -1 {
		return fasthttp.StatusOK
	}
	return status
}
