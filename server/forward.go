package server

import (
	"github.com/valyala/fasthttp"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// forwarded reports whether r goes to the upstream node: a method this
// server does not implement, with an upstream configured.
func (s *Server) forwarded(r *jsonrpc.Request) bool {
	if s.cfg.Upstream == nil || r.Err != nil {
		return false
	}
	_, known := s.reg.Lookup(r.Method)
	return !known
}

// forward runs one forwarded call of a batch: its answer is read whole,
// checked and re-encoded under the caller's id. The call has the
// upstream's deadline, not the request's.
func (s *Server) forward(r *jsonrpc.Request) outcome {
	enc, err := s.cfg.Upstream.Call(s.base, r, s.cfg.MaxAnswerBytes)
	o := outcome{ran: true, err: err}
	if err == nil && !r.Notification {
		o.enc = enc
	}
	return o
}

// stream answers a request made of one forwarded call with the node's
// answer as it arrives, so a large answer (getProgramAccounts) is never
// held whole. The node was sent the caller's id and echoes it.
func (s *Server) stream(rc *fasthttp.RequestCtx, msg jsonrpc.Message, out []outcome) {
	r := &msg.Requests[0]
	body, err := s.cfg.Upstream.Open(s.base, r)
	out[0].ran = true
	if err != nil {
		out[0].err = err
		s.writeOutcomes(rc, msg, out)
		return
	}
	if r.Notification {
		_ = body.Close()
		noContent(rc)
		return
	}
	rc.SetStatusCode(fasthttp.StatusOK)
	rc.SetContentType("application/json")
	// fasthttp closes the stream once written, which ends the call.
	rc.SetBodyStream(body, -1)
}
