package server_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/api"
	"github.com/dasch-labs/dasch/internal/syncbuf"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

// testKeys is an in-memory KeyChecker: key → project; "broken" fails.
type testKeys map[string]string

func (k testKeys) CheckKey(_ context.Context, key string) (string, bool, error) {
	if key == "broken" {
		return "", false, errors.New("store down")
	}
	p, ok := k[key]
	return p, ok, nil
}

type fixedSlot uint64

func (f fixedSlot) IndexedSlot(context.Context) (uint64, error) { return uint64(f), nil }

type healthFunc func(context.Context) error

func (h healthFunc) Ready(ctx context.Context) error { return h(ctx) }

const slot = 123456789

// testRegistry has the real api methods plus methods that misbehave on purpose.
func testRegistry() *jsonrpc.Registry {
	reg := jsonrpc.NewRegistry()
	api.Register(reg, api.Deps{Slots: fixedSlot(slot)})
	reg.Register("echo", func(_ context.Context, c *jsonrpc.Call) (any, error) {
		return map[string]any{"params": c.Params, "project": c.ProjectID}, nil
	})
	reg.Register("panic", func(context.Context, *jsonrpc.Call) (any, error) {
		panic("boom")
	})
	reg.Register("fail", func(context.Context, *jsonrpc.Call) (any, error) {
		return nil, errors.New("secret database detail")
	})
	reg.Register("notfound", func(context.Context, *jsonrpc.Call) (any, error) {
		return nil, jsonrpc.NotFound("Asset not found").WithStatus(http.StatusNotFound)
	})
	reg.Register("slow", func(ctx context.Context, _ *jsonrpc.Call) (any, error) {
		<-ctx.Done()
		return nil, fmt.Errorf("query: %w", ctx.Err())
	})
	reg.Register("stubborn", func(context.Context, *jsonrpc.Call) (any, error) {
		time.Sleep(2 * time.Second)
		return "late", nil
	})
	reg.Register("unencodable", func(context.Context, *jsonrpc.Call) (any, error) {
		return func() {}, nil
	})
	return reg
}

type testServer struct {
	url  string
	logs *syncbuf.Buffer
	stop func() error
}

// start runs a real server on a loopback port until the test ends.
func start(t testing.TB, cfg server.Config, reg *jsonrpc.Registry, health server.Health) *testServer {
	t.Helper()
	logs := &syncbuf.Buffer{}
	cfg.Listen = "127.0.0.1:0"
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	if reg == nil {
		reg = testRegistry()
	}
	s, err := server.New(cfg, reg, testKeys{"good": "proj-1", "other": "proj-2"}, health)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	var once sync.Once
	var stopErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(10 * time.Second):
				stopErr = errors.New("Serve did not return")
			}
		})
		return stopErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return &testServer{url: "http://" + s.Addr(), logs: logs, stop: stop}
}

var client = &http.Client{Timeout: 10 * time.Second}

// send sends a request with headers through c and reads the whole answer.
func send(t *testing.T, c *http.Client, method, url, body string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func do(t *testing.T, method, url, body string) (int, http.Header, []byte) {
	t.Helper()
	resp, b := send(t, client, method, url, body, map[string]string{"Content-Type": "application/json"})
	if resp.StatusCode == http.StatusNoContent {
		if len(b) != 0 || resp.Header.Get("Content-Type") != "" {
			t.Errorf("204 with a body %q or a Content-Type %q", b, resp.Header.Get("Content-Type"))
		}
		return resp.StatusCode, resp.Header, b
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if !json.Valid(b) {
		t.Errorf("response is not JSON: %q", b)
	}
	return resp.StatusCode, resp.Header, b
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decode(t *testing.T, b []byte) response {
	t.Helper()
	var r response
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	if r.JSONRPC != "2.0" {
		t.Errorf("jsonrpc = %q in %s", r.JSONRPC, b)
	}
	if len(r.ID) == 0 {
		t.Errorf("no id member in %s", b)
	}
	return r
}

func TestJSONRPC(t *testing.T) {
	ts := start(t, server.Config{RequestTimeout: 300 * time.Millisecond}, nil, nil)
	tests := []struct {
		name    string
		query   string // defaults to ?api-key=good
		body    string
		status  int
		code    int    // 0: expect a result
		message string // checked when set
		id      string // raw id expected in the answer
		result  string // checked when set
	}{
		{name: "invalid json", body: `{"jsonrpc":"2.0",`, status: 200, code: -32700, message: "Parse error", id: "null"},
		{name: "not json at all", body: `hello`, status: 200, code: -32700, id: "null"},
		{name: "empty body", body: ``, status: 200, code: -32700, id: "null"},
		{name: "no jsonrpc", body: `{"id":1,"method":"getIndexerSlot"}`, status: 200, code: -32600, id: "1"},
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":"abc","method":"getIndexerSlot"}`, status: 200, code: -32600, id: `"abc"`},
		{name: "no method", body: `{"jsonrpc":"2.0","id":2}`, status: 200, code: -32600, id: "2"},
		{name: "method not a string", body: `{"jsonrpc":"2.0","id":3,"method":42}`, status: 200, code: -32600, id: "3"},
		{name: "id object", body: `{"jsonrpc":"2.0","id":{"a":1},"method":"getIndexerSlot"}`, status: 200, code: -32600, id: "null"},
		{name: "not an object", body: `7`, status: 200, code: -32600, id: "null"},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":4,"method":"nope"}`, status: 200, code: -32601, message: "Method not found", id: "4"},
		{name: "params string", body: `{"jsonrpc":"2.0","id":5,"method":"getIndexerSlot","params":"x"}`, status: 200, code: -32602, message: "params must be an object or an array", id: "5"},
		{name: "params number", body: `{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot","params":1}`, status: 200, code: -32602, id: "6"},
		{name: "params unknown field", body: `{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot","params":{"a":1}}`, status: 200, code: -32602, message: "unknown field `a`, there are no fields", id: "6"},
		{name: "params positional", body: `{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot","params":[1]}`, status: 200, code: -32602, id: "6"},

		{name: "no key", query: "?", body: `{"jsonrpc":"2.0","id":7,"method":"getIndexerSlot"}`, status: 401, code: -32001, message: "Unauthorized: missing api-key", id: "7"},
		{name: "empty key", query: "?api-key=", body: `{"jsonrpc":"2.0","id":"k","method":"getIndexerSlot"}`, status: 401, code: -32001, message: "Unauthorized: missing api-key", id: `"k"`},
		{name: "wrong key", query: "?api-key=bad", body: `{"jsonrpc":"2.0","id":8,"method":"getIndexerSlot"}`, status: 401, code: -32001, message: "Unauthorized: invalid api-key", id: "8"},
		{name: "huge key", query: "?api-key=" + strings.Repeat("k", 300), body: `{"jsonrpc":"2.0","id":8,"method":"getIndexerSlot"}`, status: 401, code: -32001, message: "Unauthorized: invalid api-key", id: "8"},
		{name: "wrong key before unknown method", query: "?api-key=bad", body: `{"jsonrpc":"2.0","id":9,"method":"nope"}`, status: 401, code: -32001, id: "9"},
		{name: "wrong key and invalid json", query: "?api-key=bad", body: `{`, status: 401, code: -32001, id: "null"},
		{name: "key store down", query: "?api-key=broken", body: `{"jsonrpc":"2.0","id":10,"method":"getIndexerSlot"}`, status: 503, code: -32002, message: "Service unavailable", id: "10"},

		{name: "id string", body: `{"jsonrpc":"2.0","id":"abc","method":"getIndexerSlot"}`, status: 200, id: `"abc"`, result: "123456789"},
		{name: "id 7", body: `{"jsonrpc":"2.0","id":7,"method":"getIndexerSlot"}`, status: 200, id: "7", result: "123456789"},
		{name: "id 1e3", body: `{"jsonrpc":"2.0","id":1e3,"method":"getIndexerSlot"}`, status: 200, id: "1e3", result: "123456789"},
		{name: "id 1.0", body: `{"jsonrpc":"2.0","id":1.0,"method":"getIndexerSlot"}`, status: 200, id: "1.0", result: "123456789"},
		{name: "id max u64", body: `{"jsonrpc":"2.0","id":18446744073709551615,"method":"getIndexerSlot"}`, status: 200, id: "18446744073709551615", result: "123456789"},
		{name: "id null", body: `{"jsonrpc":"2.0","id":null,"method":"getIndexerSlot"}`, status: 200, id: "null", result: "123456789"},
		{name: "id escaped string", body: `{"jsonrpc":"2.0","id":"a\"\u00e9","method":"getIndexerSlot"}`, status: 200, id: `"a\"\u00e9"`, result: "123456789"},
		{name: "params null", body: `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":null}`, status: 200, id: "1", result: "123456789"},
		{name: "params empty object", body: `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":{}}`, status: 200, id: "1", result: "123456789"},
		{name: "params empty array", body: `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":[]}`, status: 200, id: "1", result: "123456789"},
		{name: "project and params reach handler", body: `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":[1,"y"]}}`, status: 200, id: "1", result: `{"params":{"x":[1,"y"]},"project":"proj-1"}`},
		{name: "other key other project", query: "?api-key=other", body: `{"jsonrpc":"2.0","id":1,"method":"echo"}`, status: 200, id: "1", result: `{"params":null,"project":"proj-2"}`},

		{name: "handler panics", body: `{"jsonrpc":"2.0","id":11,"method":"panic"}`, status: 500, code: -32603, message: "Internal error", id: "11"},
		{name: "handler error not leaked", body: `{"jsonrpc":"2.0","id":12,"method":"fail"}`, status: 500, code: -32603, message: "Internal error", id: "12"},
		{name: "handler rpc error", body: `{"jsonrpc":"2.0","id":13,"method":"notfound"}`, status: 404, code: -32004, message: "Asset not found", id: "13"},
		{name: "handler timeout", body: `{"jsonrpc":"2.0","id":14,"method":"slow"}`, status: 504, code: -32003, message: "Gateway timeout", id: "14"},
		{name: "handler ignores deadline", body: `{"jsonrpc":"2.0","id":15,"method":"stubborn"}`, status: 504, code: -32003, id: "15"},
		{name: "result not encodable", body: `{"jsonrpc":"2.0","id":16,"method":"unencodable"}`, status: 500, code: -32603, id: "16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.query
			if q == "" {
				q = "?api-key=good"
			}
			begin := time.Now()
			status, _, body := do(t, http.MethodPost, ts.url+"/"+q, tt.body)
			if status != tt.status {
				t.Errorf("status = %d, want %d (%s)", status, tt.status, body)
			}
			r := decode(t, body)
			if string(r.ID) != tt.id {
				t.Errorf("id = %s, want %s", r.ID, tt.id)
			}
			if tt.code == 0 {
				if r.Error != nil {
					t.Fatalf("unexpected error %+v", *r.Error)
				}
				if tt.result != "" && string(r.Result) != tt.result {
					t.Errorf("result = %s, want %s", r.Result, tt.result)
				}
			} else {
				if r.Error == nil {
					t.Fatalf("no error in %s", body)
				}
				if r.Error.Code != tt.code {
					t.Errorf("code = %d, want %d (%s)", r.Error.Code, tt.code, r.Error.Message)
				}
				if tt.message != "" && r.Error.Message != tt.message {
					t.Errorf("message = %q, want %q", r.Error.Message, tt.message)
				}
				if r.Result != nil {
					t.Errorf("result and error both set: %s", body)
				}
			}
			if el := time.Since(begin); el > time.Second {
				t.Errorf("took %v", el)
			}
		})
	}

	logs := ts.logs.String()
	if !strings.Contains(logs, "handler panic") || !strings.Contains(logs, "boom") || !strings.Contains(logs, "server_test.go") {
		t.Errorf("panic not logged with a stack: %s", logs)
	}
	if !strings.Contains(logs, "secret database detail") {
		t.Errorf("handler error not logged: %s", logs)
	}
}

func TestGetIndexerSlotIsBareNumber(t *testing.T) {
	ts := start(t, server.Config{}, nil, nil)
	status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":123456789}`
	if status != 200 || string(body) != want {
		t.Errorf("got %d %s, want 200 %s", status, body, want)
	}
}

func TestPanicDoesNotStopServer(t *testing.T) {
	ts := start(t, server.Config{}, nil, nil)
	for i := range 3 {
		status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", `{"jsonrpc":"2.0","id":1,"method":"panic"}`)
		if r := decode(t, body); status != 500 || r.Error == nil || r.Error.Code != -32603 {
			t.Fatalf("round %d: %d %s", i, status, body)
		}
		status, _, body = do(t, http.MethodPost, ts.url+"/?api-key=good", `{"jsonrpc":"2.0","id":2,"method":"getIndexerSlot"}`)
		if status != 200 || string(decode(t, body).Result) != "123456789" {
			t.Fatalf("round %d after panic: %d %s", i, status, body)
		}
	}
}

func TestBatch(t *testing.T) {
	ts := start(t, server.Config{RequestTimeout: 300 * time.Millisecond}, nil, nil)
	tests := []struct {
		name   string
		query  string
		body   string
		status int
		want   string
	}{
		{
			name: "mixed", status: 200,
			body: `[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},
				{"jsonrpc":"2.0","id":"b","method":"nope"},
				5,
				{"jsonrpc":"1.0","id":3,"method":"getIndexerSlot"},
				{"jsonrpc":"2.0","method":"getIndexerSlot"},
				{"jsonrpc":"2.0","id":1e3,"method":"getIndexerSlot","params":"x"},
				{"jsonrpc":"2.0","id":7,"method":"panic"},
				{"jsonrpc":"2.0","id":8,"method":"slow"}]`,
			want: `[{"jsonrpc":"2.0","id":1,"result":123456789},` +
				`{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"Method not found"}},` +
				`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected an object"}},` +
				`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}},` +
				`{"jsonrpc":"2.0","id":1e3,"error":{"code":-32602,"message":"params must be an object or an array"}},` +
				`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error"}},` +
				`{"jsonrpc":"2.0","id":8,"error":{"code":-32003,"message":"Gateway timeout"}}]`,
		},
		{
			name: "single element", status: 200,
			body: `[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}]`,
			want: `[{"jsonrpc":"2.0","id":1,"result":123456789}]`,
		},
		{
			name: "empty", status: 200, body: ` [ ] `,
			want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}`,
		},
		{
			name: "too large", status: 200,
			body: "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},`, jsonrpc.MaxBatch+1), ",") + "]",
			want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batch larger than 100 requests"}}`,
		},
		// Notifications (no id) are run but never answered; with nothing
		// to answer, there is no body.
		{name: "notification", status: 204, body: `{"jsonrpc":"2.0","method":"getIndexerSlot"}`},
		{name: "notification of an unknown method", status: 204, body: `{"jsonrpc":"2.0","method":"nope"}`},
		{name: "notification with bad params", status: 204, body: `{"jsonrpc":"2.0","method":"getIndexerSlot","params":"x"}`},
		{name: "notification that fails", status: 204, body: `{"jsonrpc":"2.0","method":"panic"}`},
		{
			name: "batch of notifications", status: 204,
			body: `[{"jsonrpc":"2.0","method":"getIndexerSlot"},{"jsonrpc":"2.0","method":"nope"}]`,
		},
		{
			name: "batch answers only requests", status: 200,
			body: `[{"jsonrpc":"2.0","method":"getIndexerSlot"},{"jsonrpc":"2.0","id":2,"method":"getIndexerSlot"}]`,
			want: `[{"jsonrpc":"2.0","id":2,"result":123456789}]`,
		},
		{
			name: "malformed element without id is answered", status: 200,
			body: `[{"jsonrpc":"2.0","method":"getIndexerSlot"},{"method":"getIndexerSlot"}]`,
			want: `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: missing jsonrpc, expected \"2.0\""}}]`,
		},
		{
			name: "unauthorized notification is answered", query: "?api-key=bad", status: 401,
			body: `{"jsonrpc":"2.0","method":"getIndexerSlot"}`,
			want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Unauthorized: invalid api-key"}}`,
		},
		{
			name: "unauthorized echoes every id", query: "?api-key=bad", status: 401,
			body: `[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},{"jsonrpc":"2.0","id":"x","method":"nope"}]`,
			want: `[{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Unauthorized: invalid api-key"}},` +
				`{"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"Unauthorized: invalid api-key"}}]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.query
			if q == "" {
				q = "?api-key=good"
			}
			status, _, body := do(t, http.MethodPost, ts.url+"/"+q, tt.body)
			if status != tt.status || string(body) != tt.want {
				t.Errorf("got  %d %s\nwant %d %s", status, body, tt.status, tt.want)
			}
		})
	}

	// A full batch of the largest allowed size answers every element in order.
	var b strings.Builder
	b.WriteString("[")
	for i := range jsonrpc.MaxBatch {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"getIndexerSlot"}`, i)
	}
	b.WriteString("]")
	status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", b.String())
	var rs []response
	if err := json.Unmarshal(body, &rs); err != nil || status != 200 || len(rs) != jsonrpc.MaxBatch {
		t.Fatalf("full batch: %d, %d answers, %v", status, len(rs), err)
	}
	for i, r := range rs {
		if string(r.ID) != fmt.Sprint(i) || string(r.Result) != "123456789" {
			t.Errorf("answer %d: id %s result %s", i, r.ID, r.Result)
		}
	}
}

func TestRoutes(t *testing.T) {
	ts := start(t, server.Config{}, nil, nil)
	tests := []struct {
		method, path string
		status       int
		code         int
		allow        string
	}{
		{http.MethodGet, "/", 405, -32600, "POST, OPTIONS"},
		{http.MethodPut, "/?api-key=good", 405, -32600, "POST, OPTIONS"},
		{http.MethodPost, "/health", 405, -32600, "GET, HEAD, OPTIONS"},
		{http.MethodDelete, "/readiness", 405, -32600, "GET, HEAD, OPTIONS"},
		{http.MethodOptions, "/nope", 404, -32004, ""},
		{http.MethodGet, "/nope", 404, -32004, ""},
		{http.MethodPost, "/v1/rpc?api-key=good", 404, -32004, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			status, hdr, body := do(t, tt.method, ts.url+tt.path, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
			if status != tt.status {
				t.Errorf("status = %d, want %d", status, tt.status)
			}
			if r := decode(t, body); r.Error == nil || r.Error.Code != tt.code || string(r.ID) != "null" {
				t.Errorf("body %s", body)
			} else if tt.status == 404 && !strings.HasPrefix(r.Error.Message, "Unknown path: ") {
				t.Errorf("message %q does not name the unknown path", r.Error.Message)
			} else if strings.Contains(r.Error.Message, "api-key") {
				t.Errorf("message %q repeats the query string", r.Error.Message)
			}
			if got := hdr.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	var mu sync.Mutex
	var readyErr error
	h := healthFunc(func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		return readyErr
	})
	ts := start(t, server.Config{}, nil, h)

	status, _, body := do(t, http.MethodGet, ts.url+"/health", "")
	if status != 200 || string(body) != `{"status":"ok"}` {
		t.Errorf("healthy: %d %s", status, body)
	}
	mu.Lock()
	readyErr = errors.New(`clickhouse: "connection refused"`)
	mu.Unlock()
	status, _, body = do(t, http.MethodGet, ts.url+"/health", "")
	if status != 503 || string(body) != `{"status":"unavailable","error":"clickhouse: \"connection refused\""}` {
		t.Errorf("unhealthy: %d %s", status, body)
	}

	// No Health at all means always ready.
	ts2 := start(t, server.Config{}, nil, nil)
	if status, _, body := do(t, http.MethodGet, ts2.url+"/health", ""); status != 200 || string(body) != `{"status":"ok"}` {
		t.Errorf("nil health: %d %s", status, body)
	}
}

func TestBodyTooLarge(t *testing.T) {
	ts := start(t, server.Config{MaxBodyBytes: 1024}, nil, nil)
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large"}}`

	// A body at the limit is still served.
	small := `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"pad":"` + strings.Repeat("x", 1024-80) + `"}}`
	if len(small) > 1024 {
		t.Fatalf("test body is %d bytes", len(small))
	}
	if status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", small); status != 200 {
		t.Fatalf("body under the limit: %d %s", status, body)
	}

	// Announced length over the limit: refused before any body is read.
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "POST /?api-key=good HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 11<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || string(body) != want || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("announced: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}

	// An ordinary client sending a body over the limit.
	if status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", small+strings.Repeat(" ", 4096)); status != 413 || string(body) != want {
		t.Errorf("sent: %d %s", status, body)
	}

	// A chunked body that grows past the limit.
	req, _ := http.NewRequest(http.MethodPost, ts.url+"/?api-key=good", io.MultiReader(strings.NewReader(strings.Repeat(" ", 2048))))
	req.ContentLength = -1
	resp, err = client.Do(req)
	if err != nil {
		t.Fatalf("chunked: %v", err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || string(body) != want {
		t.Errorf("chunked: %d %s", resp.StatusCode, body)
	}
}

func TestRateLimit(t *testing.T) {
	// 0.2/s with a burst of 2: the third request inside a few seconds is refused.
	ts := start(t, server.Config{RateLimitPerKey: 0.2, RateLimitBurst: 2}, nil, nil)
	call := `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`
	for i, want := range []int{200, 200, 429} {
		status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=good", call)
		r := decode(t, body)
		if status != want {
			t.Errorf("request %d: status %d, want %d", i, status, want)
		}
		if want == 429 && (r.Error == nil || r.Error.Code != -32029 || r.Error.Message != "Too many requests" || string(r.ID) != "1") {
			t.Errorf("request %d: %s", i, body)
		}
	}

	// Buckets are per key.
	batch := `[` + call + `,` + call + `,` + call + `]`
	status, _, body := do(t, http.MethodPost, ts.url+"/?api-key=other", batch)
	var rs []response
	if err := json.Unmarshal(body, &rs); err != nil || status != 200 || len(rs) != 3 {
		t.Fatalf("batch: %d %s", status, body)
	}
	if rs[0].Error != nil || rs[1].Error != nil || rs[2].Error == nil || rs[2].Error.Code != -32029 {
		t.Errorf("batch: %s", body)
	}
	// A batch refused whole carries 429.
	status, _, body = do(t, http.MethodPost, ts.url+"/?api-key=other", `[`+call+`,`+call+`]`)
	if status != 429 {
		t.Errorf("refused batch: %d %s", status, body)
	}
}

func TestRateLimitPerAddr(t *testing.T) {
	// A burst of 2 per address, over every key it sends.
	ts := start(t, server.Config{RateLimitPerAddr: 1}, nil, nil)
	call := `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`
	for i, c := range []struct {
		key  string
		want int
	}{{"good", 200}, {"other", 200}, {"good", 429}, {"other", 429}} {
		status, _, body := do(t, http.MethodPost, ts.url+"/?api-key="+c.key, call)
		if status != c.want {
			t.Errorf("request %d (%s): status %d, want %d: %s", i, c.key, status, c.want, body)
		}
	}
	if _, err := server.New(server.Config{RateLimitPerAddr: -1}, jsonrpc.NewRegistry(), testKeys{}, nil); err == nil {
		t.Error("a negative address rate was taken")
	}
}

func TestUsageRecorder(t *testing.T) {
	usage := server.NewUsageCounter()
	ts := start(t, server.Config{Usage: usage}, nil, nil)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`,
		`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":{"x":1}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},{"jsonrpc":"2.0","id":2,"method":"fail"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"nope"}`,
	} {
		do(t, http.MethodPost, ts.url+"/?api-key=good", body)
	}
	do(t, http.MethodPost, ts.url+"/?api-key=bad", `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
	got := usage.Drain()
	want := map[server.UsageKey]server.UsageCount{
		{ProjectID: "proj-1", Method: "getIndexerSlot"}: {OK: 2, Failed: 1},
		{ProjectID: "proj-1", Method: "fail"}:           {Failed: 1},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("usage = %v, want %v", got, want)
	}
	if len(usage.Snapshot()) != 0 {
		t.Error("Drain did not reset")
	}
}

func TestGracefulShutdown(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	reg := jsonrpc.NewRegistry()
	reg.Register("block", func(ctx context.Context, _ *jsonrpc.Call) (any, error) {
		close(entered)
		<-release
		return "finished", ctx.Err()
	})
	ts := start(t, server.Config{}, reg, nil)

	type result struct {
		status int
		body   []byte
		err    error
	}
	inflight := make(chan result, 1)
	go func() {
		resp, err := client.Post(ts.url+"/?api-key=good", "application/json",
			strings.NewReader(`{"jsonrpc":"2.0","id":"inflight","method":"block"}`))
		if err != nil {
			inflight <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		inflight <- result{resp.StatusCode, b, err}
	}()
	<-entered

	stopped := make(chan error, 1)
	go func() { stopped <- ts.stop() }()

	// Serve must wait for the in-flight request, and new connections are refused.
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned before the in-flight request finished: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(ts.url, "http://"), time.Second); err == nil {
		c.Close()
		t.Error("listener still accepting during shutdown")
	}

	close(release)
	r := <-inflight
	if r.err != nil || r.status != 200 || string(r.body) != `{"jsonrpc":"2.0","id":"inflight","result":"finished"}` {
		t.Errorf("in-flight request: %d %s %v", r.status, r.body, r.err)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the in-flight request finished")
	}
}

func TestRegistry(t *testing.T) {
	reg := jsonrpc.NewRegistry()
	h := func(context.Context, *jsonrpc.Call) (any, error) { return nil, nil }
	reg.Register("b", h)
	reg.Register("a", h)
	if got := reg.Methods(); fmt.Sprint(got) != "[a b]" {
		t.Errorf("Methods = %v", got)
	}
	if _, ok := reg.Lookup("a"); !ok {
		t.Error("Lookup a")
	}
	if _, ok := reg.Lookup("c"); ok {
		t.Error("Lookup c")
	}
	for _, tt := range []struct {
		name string
		h    jsonrpc.Handler
	}{{"a", h}, {"", h}, {"z", nil}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", tt.name)
				}
			}()
			reg.Register(tt.name, tt.h)
		}()
	}
}

func TestNewValidates(t *testing.T) {
	reg := jsonrpc.NewRegistry()
	if _, err := server.New(server.Config{}, nil, testKeys{}, nil); err == nil {
		t.Error("nil registry accepted")
	}
	if _, err := server.New(server.Config{}, reg, nil, nil); err == nil {
		t.Error("nil key checker accepted")
	}
	if _, err := server.New(server.Config{RateLimitPerKey: -1}, reg, testKeys{}, nil); err == nil {
		t.Error("negative rate accepted")
	}
}

func TestServeFailsOnBusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s, err := server.New(server.Config{Listen: ln.Addr().String()}, jsonrpc.NewRegistry(), testKeys{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr() != "" {
		t.Errorf("Addr before Listen = %q", s.Addr())
	}
	if err := s.Serve(context.Background()); err == nil {
		t.Error("Serve on a busy address returned nil")
	}
}

// TestCompression sends a large and a small answer to clients with and
// without gzip in Accept-Encoding: large answers to a gzip client come
// gzipped and decode to the same bytes the plain client gets; small ones,
// other clients and a server left at the default get the plain body.
func TestCompression(t *testing.T) {
	big := strings.Repeat("x", 4000)
	reg := testRegistry()
	reg.Register("big", func(context.Context, *jsonrpc.Call) (any, error) { return big, nil })
	on := start(t, server.Config{CompressMinBytes: 1024}, reg, nil)
	off := start(t, server.Config{}, reg, nil)
	raw := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	post := func(url, method, accept string) (http.Header, []byte) {
		t.Helper()
		h := map[string]string{}
		if accept != "" {
			h["Accept-Encoding"] = accept
		}
		resp, b := send(t, raw, http.MethodPost, url+"/?api-key=good", `{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`, h)
		return resp.Header, b
	}
	_, want := post(on.url, "big", "")
	if !bytes.Contains(want, []byte(big)) {
		t.Fatalf("plain answer %.100s", want)
	}
	tests := []struct {
		name, method, accept string
		srv                  *testServer
		gzipped              bool
	}{
		{"gzip client, large answer", "big", "gzip, deflate, br", on, true},
		{"no Accept-Encoding", "big", "", on, false},
		{"gzip refused", "big", "gzip;q=0, br", on, false},
		{"small answer", "getIndexerSlot", "gzip", on, false},
		{"compression off (default)", "big", "gzip", off, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, b := post(tt.srv.url, tt.method, tt.accept)
			if got := h.Get("Content-Encoding") == "gzip"; got != tt.gzipped {
				t.Fatalf("Content-Encoding %q, want gzip %v", h.Get("Content-Encoding"), tt.gzipped)
			}
			if tt.gzipped {
				if len(b) >= len(want)/10 {
					t.Errorf("gzipped answer of %d bytes for %d plain", len(b), len(want))
				}
				zr, err := gzip.NewReader(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				if b, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if tt.method == "big" {
				if !bytes.Equal(b, want) {
					t.Errorf("body %.100s, want %.100s", b, want)
				}
				if tt.srv == on && h.Get("Vary") != "Accept-Encoding" {
					t.Errorf("Vary %q", h.Get("Vary"))
				}
			}
		})
	}
}

// TestCORS checks what browsers see: preflights answered for every
// origin by default (any request header allowed), for the listed ones
// only when origins are configured, and not at all with CORS off; answers
// carry Access-Control-Allow-Origin accordingly.
func TestCORS(t *testing.T) {
	open := start(t, server.Config{}, nil, nil)
	listed := start(t, server.Config{CORSOrigins: []string{"https://ok.example"}}, nil, nil)
	off := start(t, server.Config{NoCORS: true}, nil, nil)
	preflight := map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type, solana-client"}
	from := func(origin string) map[string]string {
		return map[string]string{"Origin": origin, "Access-Control-Request-Method": "POST"}
	}
	tests := []struct {
		name    string
		srv     *testServer
		method  string
		path    string
		headers map[string]string
		status  int
		want    map[string]string // "" means absent
	}{
		{"preflight", open, http.MethodOptions, "/?api-key=good", preflight, 204, map[string]string{
			"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, OPTIONS",
			"Access-Control-Allow-Headers": "content-type, solana-client", "Access-Control-Max-Age": "86400"}},
		{"call from a page", open, http.MethodPost, "/?api-key=good", map[string]string{"Origin": "https://app.example"}, 200,
			map[string]string{"Access-Control-Allow-Origin": "*"}},
		{"refused key still readable", open, http.MethodPost, "/?api-key=bad", map[string]string{"Origin": "https://app.example"}, 401,
			map[string]string{"Access-Control-Allow-Origin": "*"}},
		{"OPTIONS without Origin", open, http.MethodOptions, "/", nil, 204,
			map[string]string{"Allow": "POST, OPTIONS", "Access-Control-Allow-Origin": ""}},
		{"health preflight", open, http.MethodOptions, "/health", from("https://app.example"), 204,
			map[string]string{"Access-Control-Allow-Methods": "GET, HEAD, OPTIONS"}},
		{"listed origin", listed, http.MethodOptions, "/", from("https://ok.example"), 204,
			map[string]string{"Access-Control-Allow-Origin": "https://ok.example", "Vary": "Origin"}},
		{"unlisted origin", listed, http.MethodOptions, "/", from("https://evil.example"), 204,
			map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
		{"unlisted origin's call", listed, http.MethodPost, "/?api-key=good", map[string]string{"Origin": "https://evil.example"}, 200,
			map[string]string{"Access-Control-Allow-Origin": ""}},
		{"CORS off: preflight", off, http.MethodOptions, "/", preflight, 405,
			map[string]string{"Access-Control-Allow-Origin": "", "Allow": "POST"}},
		{"CORS off: call", off, http.MethodPost, "/?api-key=good", map[string]string{"Origin": "https://app.example"}, 200,
			map[string]string{"Access-Control-Allow-Origin": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == http.MethodPost {
				body = `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`
			}
			resp, b := send(t, client, tt.method, tt.srv.url+tt.path, body, tt.headers)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			if tt.status == 204 && (len(b) != 0 || resp.Header.Get("Content-Type") != "") {
				t.Errorf("204 with a body %q or a Content-Type %q", b, resp.Header.Get("Content-Type"))
			}
			for k, want := range tt.want {
				if got := strings.Join(resp.Header.Values(k), ", "); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

// TestProbes checks Photon's probe paths: /liveness answers while the
// process runs, /readiness as /health does.
func TestProbes(t *testing.T) {
	down := healthFunc(func(context.Context) error { return errors.New("store down") })
	ts := start(t, server.Config{}, nil, down)
	for _, tt := range []struct {
		path   string
		status int
	}{{"/liveness", 200}, {"/readiness", 503}, {"/health", 503}} {
		if status, _, body := do(t, http.MethodGet, ts.url+tt.path, ""); status != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.path, status, body, tt.status)
		}
	}
}

// TestAnswerBudget: once a batch's answers pass MaxAnswerBytes, the calls
// not yet started are refused without running (413 per element), so one
// request's work and memory stay bounded.
func TestAnswerBudget(t *testing.T) {
	var ran atomic.Int32
	reg := testRegistry()
	reg.Register("big", func(context.Context, *jsonrpc.Call) (any, error) {
		ran.Add(1)
		return strings.Repeat("x", 600), nil
	})
	ts := start(t, server.Config{MaxAnswerBytes: 1000, BatchConcurrency: 1}, reg, nil)
	body := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"big"},`, 10), ",") + "]"
	status, _, b := do(t, http.MethodPost, ts.url+"/?api-key=good", body)
	var got []response
	if err := json.Unmarshal(b, &got); err != nil || status != 200 || len(got) != 10 {
		t.Fatalf("HTTP %d %s (%v)", status, b, err)
	}
	// 600 bytes, then 1,200: past 1,000, the other eight do not run.
	if n := ran.Load(); n != 2 {
		t.Errorf("%d calls ran, want 2", n)
	}
	for i, r := range got {
		refused := r.Error != nil && r.Error.Code == -32600 && strings.Contains(r.Error.Message, "passed 1000 bytes")
		if (i >= 2) != refused {
			t.Errorf("element %d: %+v, refused %v", i, r.Error, refused)
		}
	}
	// A single call is never refused by the budget.
	if status, _, b := do(t, http.MethodPost, ts.url+"/?api-key=good", `{"jsonrpc":"2.0","id":1,"method":"big"}`); status != 200 {
		t.Errorf("single call: %d %s", status, b)
	}
}

// TestRequestItems: a request naming more items than MaxRequestItems
// is refused whole, unrun; one within it runs.
func TestRequestItems(t *testing.T) {
	var ran atomic.Int32
	reg := testRegistry()
	reg.Register("batch", func(context.Context, *jsonrpc.Call) (any, error) {
		ran.Add(1)
		return "ok", nil
	})
	ts := start(t, server.Config{MaxRequestItems: 25}, reg, nil)
	call := `{"jsonrpc":"2.0","id":7,"method":"batch","params":{"ids":[1,2,3,4,5,6,7,8,9]}}` // weighs 10
	status, _, b := do(t, http.MethodPost, ts.url+"/?api-key=good", "["+call+","+call+","+call+"]")
	var got []response
	if err := json.Unmarshal(b, &got); err != nil || status != 413 || len(got) != 3 {
		t.Fatalf("HTTP %d %s (%v)", status, b, err)
	}
	for i, r := range got {
		if r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "7" ||
			!strings.Contains(r.Error.Message, "name 30 items") || !strings.Contains(r.Error.Message, "at most 25") {
			t.Errorf("element %d: %+v", i, r.Error)
		}
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("%d calls of a refused request ran", n)
	}
	if status, _, b := do(t, http.MethodPost, ts.url+"/?api-key=good", "["+call+","+call+"]"); status != 200 || ran.Load() != 2 {
		t.Errorf("a request within the bound: HTTP %d %s, %d ran", status, b, ran.Load())
	}
}

// TestRefusedBodyNotParsed: without a valid key, a large body is not
// parsed: the answer is one error with id null (a small body still has
// each id echoed, as TestBatch checks).
func TestRefusedBodyNotParsed(t *testing.T) {
	ts := start(t, server.Config{}, nil, nil)
	pad := strings.Repeat("x", 20<<10)
	body := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"p":"`+pad+`"}},`, 50), ",") + "]"
	for _, q := range []string{"?api-key=bad", "?"} {
		status, _, b := do(t, http.MethodPost, ts.url+"/"+q, body)
		r := decode(t, b)
		if status != 401 || string(r.ID) != "null" || r.Error == nil || r.Error.Code != -32001 {
			t.Errorf("%s: HTTP %d %s, want one 401 error with id null", q, status, b)
		}
	}
}

// countingKeys is a MemoryKeyChecker counting its lookups.
type countingKeys struct {
	testKeys
	lookups atomic.Int32
}

func (k *countingKeys) CheckKey(ctx context.Context, key string) (string, bool, error) {
	k.lookups.Add(1)
	return k.testKeys.CheckKey(ctx, key)
}

func (k *countingKeys) KnownKey(key string) (string, bool) {
	p, ok := k.testKeys[key]
	return p, ok
}

// TestUnknownKeyBodyBounded: with a checker that answers from memory, a
// body past 64 KiB is not read for a key it does not know (413 naming
// the bound); a known key, in the query or the header, may send up to
// MaxBodyBytes.
func TestUnknownKeyBodyBounded(t *testing.T) {
	keys := &countingKeys{testKeys: testKeys{"good": "proj-1"}}
	s, err := server.New(server.Config{Listen: "127.0.0.1:0"}, testRegistry(), keys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	defer func() { cancel(); <-done }()
	url := "http://" + s.Addr()
	pad := strings.Repeat("x", 100<<10)
	body := `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"p":"` + pad + `"}}`
	status, _, b := do(t, http.MethodPost, url+"/?api-key=stranger", body)
	if r := decode(t, b); status != 413 || r.Error == nil || !strings.Contains(r.Error.Message, "at most 64 KiB is read before the key is checked") {
		t.Errorf("unknown key, 100 KiB: HTTP %d %s", status, b)
	}
	if n := keys.lookups.Load(); n != 0 {
		t.Errorf("%d lookups for a body never read", n)
	}
	if status, _, b := do(t, http.MethodPost, url+"/?api-key=good", body); status != 200 {
		t.Errorf("known key, 100 KiB: HTTP %d %.200s", status, b)
	}
	req, err := http.NewRequest(http.MethodPost, url+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", "good")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("known key in the header, 100 KiB: HTTP %d", resp.StatusCode)
	}
	// A small body with an unknown key is read, and refused as before.
	if status, _, _ := do(t, http.MethodPost, url+"/?api-key=stranger", `{"jsonrpc":"2.0","id":1,"method":"echo"}`); status != 401 {
		t.Errorf("unknown key, small body: HTTP %d", status)
	}
}

// TestFailedKeysPerAddress: an address that keeps sending invalid keys is
// answered 429 past its ration, without a lookup, while a known key from
// the same address is still served.
func TestFailedKeysPerAddress(t *testing.T) {
	keys := &countingKeys{testKeys: testKeys{"good": "proj-1"}}
	logs := &syncbuf.Buffer{}
	s, err := server.New(server.Config{Listen: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(logs, nil))},
		testRegistry(), keys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	defer func() { cancel(); <-done }()
	url := "http://" + s.Addr()
	body := `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`
	var refused int
	for i := range 40 {
		status, _, b := do(t, http.MethodPost, url+"/?api-key=bad"+strconv.Itoa(i), body)
		switch {
		case status == 401:
		case status == 429 && strings.Contains(string(b), "too many invalid api-keys"):
			refused++
		default:
			t.Fatalf("bad key %d: HTTP %d %s", i, status, b)
		}
	}
	// The burst of 20, give or take what refilled during the loop.
	if refused < 15 || keys.lookups.Load() > 25 {
		t.Errorf("%d of 40 refused, %d lookups; want most refused past about 20 lookups", refused, keys.lookups.Load())
	}
	if status, _, b := do(t, http.MethodPost, url+"/?api-key=good", body); status != 200 {
		t.Errorf("known key from the same address: HTTP %d %s", status, b)
	}
}
