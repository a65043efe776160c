package server

import (
	"bytes"
	"strconv"

	"github.com/valyala/fasthttp"
)

// Even gzip's fastest level spends several times as long on a large page
// as encoding it took, so compressing pays only over slow links
// (docs/performance.md, Server): it is the operator's choice
// (Config.CompressMinBytes), off by default. Clients that do not ask for
// gzip (or ask with q=0) get the plain body, byte for byte.

// compressLevel is gzip's fastest level: level 6 made a test page hardly
// smaller (docs/performance.md, Server).
const compressLevel = fasthttp.CompressBestSpeed

// setBody makes body the answer's body: gzipped, straight into the
// response, when the request admits gzip and body is long enough (saying
// so in the headers), else copied as it is.
func (s *Server) setBody(rc *fasthttp.RequestCtx, body []byte) {
	if s.cfg.CompressMinBytes <= 0 || len(body) < s.cfg.CompressMinBytes {
		rc.SetBody(body)
		return
	}
	// The answer's encoding depends on the request's header from here on.
	rc.Response.Header.Add(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
	if !acceptsGzip(rc.Request.Header.Peek(fasthttp.HeaderAcceptEncoding)) {
		rc.SetBody(body)
		return
	}
	rc.Response.ResetBody()
	if _, err := fasthttp.WriteGzipLevel(rc.Response.BodyWriter(), body, compressLevel); err != nil {
		// The writer appends to memory; should it ever fail, send it plain.
		s.log.Error("gzip answer failed", "err", err)
		rc.SetBody(body)
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderContentEncoding, "gzip")
}

// acceptsGzip reports whether an Accept-Encoding value admits gzip (RFC
// 9110, 12.5.3): gzip, x-gzip or "*" listed with a weight above zero. An
// explicit gzip;q=0 refuses it whatever "*" says.
func acceptsGzip(h []byte) bool {
	star, named := false, false
	for len(h) > 0 {
		var item []byte
		item, h, _ = bytes.Cut(h, []byte{','})
		coding, params, _ := bytes.Cut(item, []byte{';'})
		coding = bytes.TrimSpace(coding)
		ok := weightAboveZero(params)
		switch {
		case bytes.EqualFold(coding, []byte("gzip")), bytes.EqualFold(coding, []byte("x-gzip")):
			if !ok {
				return false
			}
			named = true
		case bytes.Equal(coding, []byte("*")):
			star = ok
		}
	}
	return named || star
}

// weightAboveZero reads the q parameter of one Accept-Encoding item: no q
// is weight 1, an unreadable one counts as zero.
func weightAboveZero(params []byte) bool {
	for len(params) > 0 {
		var p []byte
		p, params, _ = bytes.Cut(params, []byte{';'})
		k, v, _ := bytes.Cut(bytes.TrimSpace(p), []byte{'='})
		if !bytes.EqualFold(bytes.TrimSpace(k), []byte("q")) {
			continue
		}
		q, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
		return err == nil && q > 0
	}
	return true
}
