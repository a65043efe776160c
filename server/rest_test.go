package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/internal/syncbuf"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
)

func TestREST(t *testing.T) {
	logs := &syncbuf.Buffer{}
	s, err := server.New(server.Config{Listen: "127.0.0.1:0", RequestTimeout: 200 * time.Millisecond,
		RateLimitPerKey: 0.001, RateLimitBurst: 9, Logger: slog.New(slog.NewTextHandler(logs, nil))},
		jsonrpc.NewRegistry(), testKeys{"good": "proj-1", "limited": "proj-2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/health", "/readiness", "/liveness"} {
		if err := s.HandleREST(p, nil); err == nil {
			t.Errorf("%s taken by a REST handler", p)
		}
	}
	h := func(ctx context.Context, project string, body []byte) ([]byte, error) {
		switch string(body) {
		case "bad":
			return nil, server.BadRequest("limit: must be %d", 5)
		case "fail":
			return nil, errors.New("disk on fire")
		case "panic":
			panic("boom")
		case "slow":
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return json.Marshal(map[string]string{"project": project, "body": string(body)})
	}
	if err := s.HandleREST("/v1/x", h); err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	for deadline := time.Now().Add(5 * time.Second); ; {
		// Serve has begun once HandleREST refuses.
		if s.HandleREST("/v1/y", h) != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("HandleREST accepted after Serve")
		}
		time.Sleep(time.Millisecond)
	}
	url := "http://" + s.Addr() + "/v1/x"
	for _, tc := range []struct {
		name, method, key, body string
		status                  int
		want                    string
	}{
		{"ok", "POST", "good", "hi", 200, `{"body":"hi","project":"proj-1"}`},
		{"request error", "POST", "good", "bad", 400, `{"error":"limit: must be 5"}`},
		{"handler error", "POST", "good", "fail", 500, `{"error":"Internal error"}`},
		{"panic", "POST", "good", "panic", 500, `{"error":"Internal error"}`},
		{"after a panic", "POST", "good", "again", 200, `{"body":"again","project":"proj-1"}`},
		{"deadline", "POST", "good", "slow", 504, `{"error":"Gateway timeout"}`},
		{"no key", "POST", "", "hi", 401, `{"error":"Unauthorized: missing api-key"}`},
		{"unknown key", "POST", "nope", "hi", 401, `{"error":"Unauthorized: invalid api-key"}`},
		{"key check fails", "POST", "broken", "hi", 503, `{"error":"Service unavailable"}`},
		{"GET", "GET", "good", "", 405, `{"error":"HTTP method not allowed, use POST"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.key != "" {
				hdr["X-Api-Key"] = tc.key
			}
			resp, b := send(t, client, tc.method, url, tc.body, hdr)
			if resp.StatusCode != tc.status || strings.TrimSpace(string(b)) != tc.want {
				t.Errorf("%d %s, want %d %s", resp.StatusCode, b, tc.status, tc.want)
			}
		})
	}
	if !strings.Contains(logs.String(), "disk on fire") || !strings.Contains(logs.String(), "boom") {
		t.Errorf("handler failures not logged: %s", logs.String())
	}
	// The rate limit of JSON-RPC calls holds for REST ones.
	status := 0
	for range 10 {
		resp, _ := send(t, client, "POST", url, "hi", map[string]string{"X-Api-Key": "limited"})
		status = resp.StatusCode
	}
	if status != http.StatusTooManyRequests {
		t.Errorf("past the burst: %d", status)
	}
}

// restMeter records entries and refuses proj-2.
type restMeter struct {
	mu      sync.Mutex
	entries []server.Entry
}

func (m *restMeter) Admit(k *server.Key, method string, _ time.Time) *jsonrpc.Error {
	if k.ProjectID == "proj-2" {
		return jsonrpc.Unauthorized("Forbidden: " + method).WithStatus(http.StatusForbidden)
	}
	return nil
}

func (m *restMeter) Record(e *server.Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = append(m.entries, *e)
}

func TestRESTMeter(t *testing.T) {
	m := &restMeter{}
	s, err := server.New(server.Config{Listen: "127.0.0.1:0", Meter: m, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
		jsonrpc.NewRegistry(), testKeys{"good": "proj-1", "other": "proj-2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.HandleREST("/v1/x", func(context.Context, string, []byte) ([]byte, error) { return []byte(`{"ok":true}`), nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	url := "http://" + s.Addr() + "/v1/x"
	for _, key := range []string{"good", "other", ""} {
		hdr := map[string]string{}
		if key != "" {
			hdr["X-Api-Key"] = key
		}
		send(t, client, "POST", url, "body", hdr)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.entries) != 3 {
		t.Fatalf("%d entries, want one a request", len(m.entries))
	}
	for i, want := range []struct {
		project, method string
		ran             bool
		status          int
	}{
		{"proj-1", "POST /v1/x", true, 200},
		{"proj-2", "POST /v1/x", false, 403},
		{"", "", false, 401},
	} {
		e := m.entries[i]
		project := ""
		if e.Key != nil {
			project = e.Key.ProjectID
		}
		if project != want.project || e.Method != want.method || e.Ran != want.ran || e.HTTPStatus != want.status ||
			e.RequestBytes != 4 || e.BatchSize != 1 || (want.status == 200 && e.ResponseBytes != len(`{"ok":true}`)) {
			t.Errorf("entry %d: %+v, want %+v", i, e, want)
		}
	}
}
