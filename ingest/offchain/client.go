package offchain

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Limits bound what fetching one document may cost.
type Limits struct {
	// ConnectTimeout bounds a connection's dial and TLS handshake;
	// Timeout the whole fetch, redirects and body included.
	ConnectTimeout, Timeout time.Duration
	// MaxBytes is the largest document kept; a larger one is too_large.
	MaxBytes int64
	// MaxRedirects is how many redirects one fetch follows.
	MaxRedirects int
	// PerHost is how many fetches from one host run at once.
	PerHost int
	// AllowPrivate lets the fetcher connect to private, loopback and
	// link-local addresses (tests serve documents on loopback).
	AllowPrivate bool
	// UserAgent is sent with every request.
	UserAgent string
}

// DefaultLimits are the limits of a Fetcher that sets none.
var DefaultLimits = Limits{
	ConnectTimeout: 5 * time.Second,
	Timeout:        20 * time.Second,
	MaxBytes:       1 << 20,
	MaxRedirects:   5,
	PerHost:        8,
	UserAgent:      "dasch-metadata-fetcher",
}

// Kinds of outcome.
const (
	outcomeOK    = "ok"
	outcomeRetry = "retry"
	outcomeFail  = "failed"
)

// Outcome is what fetching one URI came to.
type Outcome struct {
	Kind        string // outcomeOK, outcomeRetry or outcomeFail
	Reason      string // why it is not ok: a short, stable code
	HTTPStatus  int
	Doc         []byte // compact UTF-8 JSON, when ok
	ContentType string
	// RetryAfter is the wait the server asked for (Retry-After), if any.
	RetryAfter time.Duration
}

// Client fetches documents within its limits. It is safe for concurrent
// use.
type Client struct {
	limits   Limits
	gateways Gateways
	http     *http.Client
	mirror   *Mirror

	mu    sync.Mutex
	hosts map[string]chan struct{}
}

// NewClient returns a client fetching within l (zero members take
// DefaultLimits'), content-addressed URIs from g; URIs the mirror holds
// are read from it instead (nil: none).
func NewClient(l Limits, g Gateways, mirror *Mirror) *Client {
	return newClient(l, g, mirror, nil)
}

// newClient is NewClient connecting only to the addresses allow accepts
// (nil: Public), unless l.AllowPrivate.
func newClient(l Limits, g Gateways, mirror *Mirror, allow func(netip.Addr) bool) *Client {
	d := DefaultLimits
	if l.ConnectTimeout <= 0 {
		l.ConnectTimeout = d.ConnectTimeout
	}
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxRedirects < 0 {
		l.MaxRedirects = 0
	} else if l.MaxRedirects == 0 {
		l.MaxRedirects = d.MaxRedirects
	}
	if l.PerHost <= 0 {
		l.PerHost = d.PerHost
	}
	if l.UserAgent == "" {
		l.UserAgent = d.UserAgent
	}
	dialer := newGuardedDialer(l.ConnectTimeout, l.AllowPrivate, allow)
	tr := &http.Transport{
		// No proxy from the environment: it would connect for us, past
		// the address check.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   l.ConnectTimeout,
		ResponseHeaderTimeout: l.Timeout,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   l.PerHost,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c := &Client{limits: l, gateways: g, mirror: mirror, hosts: map[string]chan struct{}{}}
	c.http = &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > l.MaxRedirects {
				return errTooManyRedirects
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return errUnsupported
			}
			return nil
		},
	}
	return c
}

var errTooManyRedirects = errors.New("too_many_redirects")

// Close drops the client's idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// host takes a turn of host's per-host limit; release gives it back.
func (c *Client) host(ctx context.Context, host string) (release func(), err error) {
	c.mu.Lock()
	sem, ok := c.hosts[host]
	if !ok {
		sem = make(chan struct{}, c.limits.PerHost)
		c.hosts[host] = sem
	}
	c.mu.Unlock()
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Fetch fetches the document at uri. An error is returned only when ctx
// ended; every other failure is an Outcome.
func (c *Client) Fetch(ctx context.Context, uri string) (Outcome, error) {
	if c.mirror != nil {
		if doc, ok, err := c.mirror.Get(uri); err != nil {
			return failed("mirror: " + err.Error()), nil
		} else if ok {
			return c.document(doc, "application/json", 200), nil
		}
	}
	target, isData, err := Rewrite(uri, c.gateways)
	if err != nil {
		return failed(err.Error()), nil
	}
	if isData {
		body, ctype, err := decodeDataURI(target, c.limits.MaxBytes)
		if err != nil {
			return failed(err.Error()), nil
		}
		return c.document(body, ctype, 0), nil
	}
	u, _ := url.Parse(target)
	release, err := c.host(ctx, strings.ToLower(u.Hostname()))
	if err != nil {
		return Outcome{}, err
	}
	defer release()
	fctx, cancel := context.WithTimeout(ctx, c.limits.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(fctx, http.MethodGet, target, nil)
	if err != nil {
		return failed(errBadURI.Error()), nil
	}
	req.Header.Set("User-Agent", c.limits.UserAgent)
	req.Header.Set("Accept", "application/json, */*;q=0.5")
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		return transportOutcome(err), nil
	}
	defer resp.Body.Close()
	out := Outcome{HTTPStatus: resp.StatusCode, ContentType: resp.Header.Get("Content-Type")}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode >= 500:
		out.Kind, out.Reason = outcomeRetry, "http_"+strconv.Itoa(resp.StatusCode)
		out.RetryAfter = retryAfter(resp.Header.Get("Retry-After"))
		return out, nil
	case resp.StatusCode != http.StatusOK:
		out.Kind, out.Reason = outcomeFail, "http_"+strconv.Itoa(resp.StatusCode)
		return out, nil
	}
	if resp.ContentLength > c.limits.MaxBytes {
		out.Kind, out.Reason = outcomeFail, "too_large"
		return out, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.limits.MaxBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		o := transportOutcome(err)
		o.HTTPStatus = resp.StatusCode
		return o, nil
	}
	if int64(len(body)) > c.limits.MaxBytes {
		out.Kind, out.Reason = outcomeFail, "too_large"
		return out, nil
	}
	return c.document(body, out.ContentType, resp.StatusCode), nil
}

// document is the outcome of a body read whole: ok when it is UTF-8
// JSON, whatever the content type said (gateways often call JSON
// text/plain); else not_utf8, invalid_json (the type said JSON) or
// not_json. None of them is retried.
func (c *Client) document(body []byte, ctype string, status int) Outcome {
	out := Outcome{HTTPStatus: status, ContentType: ctype}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	mt, _, _ := mime.ParseMediaType(ctype)
	jsonType := mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json"
	switch {
	case !utf8.Valid(body):
		out.Kind, out.Reason = outcomeFail, "not_utf8"
	case !json.Valid(body):
		out.Kind, out.Reason = outcomeFail, "not_json"
		if jsonType {
			out.Reason = "invalid_json"
		}
	default:
		var b bytes.Buffer
		if err := json.Compact(&b, body); err != nil {
			out.Kind, out.Reason = outcomeFail, "invalid_json"
			break
		}
		out.Kind, out.Doc = outcomeOK, b.Bytes()
	}
	return out
}

func failed(reason string) Outcome { return Outcome{Kind: outcomeFail, Reason: reason} }

// transportOutcome classifies a request that got no full answer:
// refused addresses, bad redirects and unknown hosts are permanent;
// timeouts and broken connections are retried.
func transportOutcome(err error) Outcome {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, errPrivate):
		return failed(errPrivate.Error())
	case errors.Is(err, errTooManyRedirects):
		return failed(errTooManyRedirects.Error())
	case errors.Is(err, errUnsupported):
		return failed("redirect_" + errUnsupported.Error())
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return Outcome{Kind: outcomeRetry, Reason: "timeout"}
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return failed("dns_not_found")
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return Outcome{Kind: outcomeRetry, Reason: "timeout"}
	}
	return Outcome{Kind: outcomeRetry, Reason: "connection"}
}

// retryAfter reads a Retry-After header in seconds (a date is ignored),
// at most an hour.
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return min(time.Duration(n)*time.Second, time.Hour)
}

// decodeDataURI decodes a data: URI (RFC 2397) of at most max bytes.
func decodeDataURI(uri string, max int64) ([]byte, string, error) {
	rest := uri[len("data:"):]
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, "", errBadURI
	}
	if int64(len(data)) > 4*max {
		return nil, "", errors.New("too_large")
	}
	b64 := strings.HasSuffix(strings.ToLower(meta), ";base64")
	ctype := strings.TrimSuffix(meta, ";base64")
	var body []byte
	if b64 {
		var err error
		if body, err = base64.StdEncoding.DecodeString(data); err != nil {
			if body, err = base64.RawStdEncoding.DecodeString(data); err != nil {
				return nil, "", fmt.Errorf("%w: %v", errBadURI, err)
			}
		}
	} else {
		s, err := url.PathUnescape(data)
		if err != nil {
			return nil, "", errBadURI
		}
		body = []byte(s)
	}
	if int64(len(body)) > max {
		return nil, "", errors.New("too_large")
	}
	return body, ctype, nil
}
