package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/goccy/go-json"
)

// client talks JSON-RPC to the server under test, as any client would.
type client struct {
	url  string
	http *http.Client
}

func newClient(addr, apiKey string) *client {
	return &client{url: "http://" + addr + "/?api-key=" + url.QueryEscape(apiKey), http: &http.Client{}}
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// call sends one request and returns the raw result or the error object.
func (c *client) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *rpcError, error) {
	body, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      int             `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", 1, method, params})
	if err != nil {
		return nil, nil, fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: read answer: %w", method, err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, nil, fmt.Errorf("%s: answer is not JSON-RPC (HTTP %d): %.200s", method, resp.StatusCode, b)
	}
	if env.Error != nil {
		return nil, env.Error, nil
	}
	return env.Result, nil, nil
}
