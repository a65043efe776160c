// Package rpc is the benchmarks' JSON-RPC client: requests to a dasch
// server over loopback HTTP, where only a JSON-RPC result counts as a
// success.
package rpc

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"
)

// Client talks JSON-RPC to a dasch server over loopback HTTP.
type Client struct {
	hc  *fasthttp.Client
	url string
}

// New returns a client of the server at addr with apiKey, keeping up to
// conns connections.
func New(addr, apiKey string, conns int) *Client {
	return &Client{
		hc:  &fasthttp.Client{MaxConnsPerHost: conns, ReadTimeout: time.Minute, WriteTimeout: time.Minute},
		url: "http://" + addr + "/?api-key=" + apiKey,
	}
}

// Post sends one request and returns the response body (a copy). Only a
// JSON-RPC result counts as success: an error answer would otherwise be
// timed as a fast one.
func (c *Client) Post(ctx context.Context, body []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(c.url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType("application/json")
	req.SetBodyRaw(body)
	deadline := time.Now().Add(time.Minute)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.hc.DoDeadline(req, resp, deadline); err != nil {
		return nil, err
	}
	out := bytes.Clone(resp.Body())
	if resp.StatusCode() != fasthttp.StatusOK || !bytes.Contains(out, []byte(`"result"`)) {
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode(), abbrev(out))
	}
	return out, nil
}

func abbrev(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
