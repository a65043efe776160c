package server

import (
	"bytes"

	"github.com/valyala/fasthttp"
)

// Web pages (wallets, explorers) call the API from browsers, which first
// ask with a CORS preflight. Like Photon, the server lets every origin
// call it with any request header: no cookie or other credential is
// involved (the key travels in the URL), so the wildcard gives a page no
// more than curl has. Config.CORSOrigins narrows the origins and
// Config.NoCORS turns CORS off.

// corsMaxAge lets a browser reuse a preflight's answer for a day.
const corsMaxAge = "86400"

// cors adds the CORS headers to rc's answer and answers an OPTIONS request
// itself (204, with Allow: methods); it reports whether it did, so the
// route stops there.
func (s *Server) cors(rc *fasthttp.RequestCtx, methods string) (answered bool) {
	if s.cfg.NoCORS {
		return false
	}
	origin := s.allowedOrigin(rc)
	if !rc.IsOptions() {
		if origin != "" {
			rc.Response.Header.Set(fasthttp.HeaderAccessControlAllowOrigin, origin)
		}
		return false
	}
	h := &rc.Response.Header
	h.Set(fasthttp.HeaderAllow, methods)
	if origin != "" && len(rc.Request.Header.Peek(fasthttp.HeaderAccessControlRequestMethod)) > 0 {
		h.Set(fasthttp.HeaderAccessControlAllowOrigin, origin)
		h.Set(fasthttp.HeaderAccessControlAllowMethods, methods)
		if asked := rc.Request.Header.Peek(fasthttp.HeaderAccessControlRequestHeaders); len(asked) > 0 {
			h.SetBytesV(fasthttp.HeaderAccessControlAllowHeaders, asked)
		}
		h.Set(fasthttp.HeaderAccessControlMaxAge, corsMaxAge)
	}
	noContent(rc)
	return true
}

// noContent answers 204: no body, so no Content-Type either.
func noContent(rc *fasthttp.RequestCtx) {
	rc.SetStatusCode(fasthttp.StatusNoContent)
	rc.ResetBody()
	rc.Response.Header.SetContentType("")
	rc.Response.Header.SetNoDefaultContentType(true)
}

// allowedOrigin is the Access-Control-Allow-Origin value for rc: "*" when
// every origin is allowed, the request's own origin when it is listed,
// else "" (no header: the browser withholds the answer from the page).
func (s *Server) allowedOrigin(rc *fasthttp.RequestCtx) string {
	if len(s.cfg.CORSOrigins) == 0 {
		return "*"
	}
	// The answer depends on the request's Origin: caches must key on it.
	rc.Response.Header.Add(fasthttp.HeaderVary, "Origin")
	origin := rc.Request.Header.Peek("Origin")
	for _, o := range s.cfg.CORSOrigins {
		if o == "*" {
			return "*"
		}
		if len(origin) > 0 && bytes.Equal(origin, []byte(o)) {
			return o
		}
	}
	return ""
}
