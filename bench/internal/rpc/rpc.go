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
	var out []byte
	err := c.do(ctx, body, func(b []byte) { out = bytes.Clone(b) })
	return out, err
}

// Send is Post for a caller that does not keep the answer: the timed
// requests, whose time ends when the whole answer is received, not
// copied (a token accounts page is about 900 KB).
func (c *Client) Send(ctx context.Context, body []byte) error {
	return c.do(ctx, body, nil)
}

// do sends one request and hands the body, valid only during the call, to
// keep when it is set.
func (c *Client) do(ctx context.Context, body []byte, keep func([]byte)) error {
	if err := ctx.Err(); err != nil {
		return err
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
		return err
	}
	b := resp.Body()
	if resp.StatusCode() != fasthttp.StatusOK || !bytes.Contains(b, []byte(`"result"`)) {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode(), abbrev(b))
	}
	if keep != nil {
		keep(b)
	}
	return nil
}

func abbrev(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
