// Package upstream forwards JSON-RPC calls dasch does not implement to a
// Solana node, so that clients which send standard RPC methods
// (getAccountInfo, getLatestBlockhash, ...) to their indexer's URL can use
// one endpoint, as Helius offers. Each call is sent as a request of its
// own, built from the parsed method, params and id: nothing else of the
// caller's request (its api-key, headers or query) reaches the node.
package upstream

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// DefaultTimeout bounds one forwarded call when Options leaves it unset.
const DefaultTimeout = 30 * time.Second

// Options configure a Forwarder.
type Options struct {
	// Timeout bounds one forwarded call, the answer's body included; it
	// replaces the server's own request deadline for forwarded calls.
	Timeout time.Duration
	// Client sends the calls; nil means a client of its own.
	Client *http.Client
}

// Forwarder sends calls to one node.
type Forwarder struct {
	url     string
	host    string // for messages: the URL may carry the node's own key
	timeout time.Duration
	client  *http.Client
}

// New returns a Forwarder to the node at rawURL (http or https).
func New(rawURL string, opts Options) (*Forwarder, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream: %q is not an http(s) URL", redact(rawURL))
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	c := opts.Client
	if c == nil {
		c = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	return &Forwarder{url: rawURL, host: u.Host, timeout: opts.Timeout, client: c}, nil
}

// Host is the node's host, for logs (the URL itself may carry a key).
func (f *Forwarder) Host() string { return f.host }

// Timeout is the deadline of one forwarded call.
func (f *Forwarder) Timeout() time.Duration { return f.timeout }

// Errors a forwarded call may answer. Their HTTP statuses say the node,
// not dasch, failed.
var (
	errUnreachable = jsonrpc.Unavailable("Upstream node unavailable").WithStatus(http.StatusBadGateway)
	errTimeout     = jsonrpc.Timeout("Upstream node timeout").WithStatus(http.StatusGatewayTimeout)
	errBadAnswer   = jsonrpc.Errorf(jsonrpc.CodeInternalError, "Upstream node answered with something not a JSON-RPC response").
			WithStatus(http.StatusBadGateway)
	errTooLarge = jsonrpc.InvalidRequest("Upstream answer too large for a batch; send this call alone").
			WithStatus(http.StatusRequestEntityTooLarge)
)

// Body is the request sent for r: its id (absent for a notification),
// method and params, and nothing else.
func Body(r *jsonrpc.Request) []byte {
	b := append([]byte(nil), `{"jsonrpc":"2.0",`...)
	if !r.Notification {
		b = append(b, `"id":`...)
		if len(r.ID) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, r.ID...)
		}
		b = append(b, ',')
	}
	b = append(b, `"method":`...)
	b = jsonrpc.AppendString(b, r.Method)
	if len(r.Params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, r.Params...)
	}
	return append(b, '}')
}

// Open sends r and returns the node's answer to read: a 200 answer with a
// JSON body, whose reader ends the call when closed. ctx should carry no
// deadline of the caller's; the call gets the Forwarder's own.
func (f *Forwarder) Open(ctx context.Context, r *jsonrpc.Request) (io.ReadCloser, *jsonrpc.Error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.url, bytes.NewReader(Body(r)))
	if err != nil {
		cancel()
		return nil, errUnreachable
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, errTimeout
		}
		return nil, errUnreachable
	}
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		cancel()
		return nil, statusError(resp.StatusCode)
	}
	// The answer is streamed unread; it must at least start as a JSON
	// object, so an HTML error page of a proxy is not passed on as one.
	br := bufio.NewReader(resp.Body)
	if !startsObject(br) {
		resp.Body.Close()
		cancel()
		return nil, errBadAnswer
	}
	return &body{Reader: br, closer: resp.Body, cancel: cancel}, nil
}

// startsObject reports whether the first byte past leading white space is
// an opening brace, reading nothing past it.
func startsObject(br *bufio.Reader) bool {
	for range 64 {
		c, err := br.ReadByte()
		if err != nil {
			return false
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return br.UnreadByte() == nil
		}
		return false
	}
	return false
}

// statusError answers a node's non-200 answer; a 429 stays a 429 so the
// client backs off.
func statusError(status int) *jsonrpc.Error {
	if status == http.StatusTooManyRequests {
		return jsonrpc.TooManyRequests("Upstream node: too many requests").WithStatus(http.StatusTooManyRequests)
	}
	return jsonrpc.Errorf(jsonrpc.CodeUnavailable, "Upstream node answered HTTP %s", strconv.Itoa(status)).
		WithStatus(http.StatusBadGateway)
}

// body ends the call's context once the answer is read and closed.
type body struct {
	*bufio.Reader
	closer io.Closer
	cancel context.CancelFunc
}

func (b *body) Close() error {
	err := b.closer.Close()
	b.cancel()
	return err
}

// Call sends r and returns its answer encoded for the caller, read in
// whole up to max bytes and checked: one JSON-RPC response object whose
// result or error is re-encoded under the caller's id. It is for a
// batch, whose answers are assembled; a call alone is streamed (Open).
func (f *Forwarder) Call(ctx context.Context, r *jsonrpc.Request, max int) ([]byte, *jsonrpc.Error) {
	rd, jerr := f.Open(ctx, r)
	if jerr != nil {
		return nil, jerr
	}
	defer rd.Close()
	raw, err := io.ReadAll(io.LimitReader(rd, int64(max)+1))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, errTimeout
		}
		return nil, errUnreachable
	}
	if len(raw) > max {
		return nil, errTooLarge
	}
	return Encode(r.ID, raw)
}

// answer is a node's response object.
type answer struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    *int            `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// Encode checks a node's answer and re-encodes it under id: exactly one
// of result and error, the error with a numeric code and a message.
func Encode(id json.RawMessage, raw []byte) ([]byte, *jsonrpc.Error) {
	var a answer
	if !json.Valid(raw) || json.Unmarshal(raw, &a) != nil || a.JSONRPC != "2.0" {
		return nil, errBadAnswer
	}
	hasResult := a.Result != nil
	switch {
	case a.Error != nil && !hasResult:
		if a.Error.Code == nil || a.Error.Message == nil {
			return nil, errBadAnswer
		}
		e := jsonrpc.NewError(*a.Error.Code, *a.Error.Message)
		if len(a.Error.Data) > 0 && !bytes.Equal(a.Error.Data, []byte("null")) {
			e = e.WithData(a.Error.Data)
		}
		return nil, e
	case hasResult && a.Error == nil:
		out, err := jsonrpc.AppendResult(nil, id, a.Result)
		if err != nil {
			return nil, errBadAnswer
		}
		return out, nil
	}
	return nil, errBadAnswer
}

// redact drops the query and user info of a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.RawQuery, u.User = "", nil
	return u.String()
}
