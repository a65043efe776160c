package server_test

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/server"
)

func TestRedactKeys(t *testing.T) {
	tests := []struct{ in, want string }{
		{"GET /?api-key=abc123 HTTP/1.1", "GET /?api-key=REDACTED HTTP/1.1"},
		{"/v0/x?a=1&api-key=abc&b=2", "/v0/x?a=1&api-key=REDACTED&b=2"},
		{"API_KEY=zz", "API_KEY=REDACTED"},
		{"X-Api-Key: s3cret\r\nHost: h", "X-Api-Key: REDACTED\r\nHost: h"},
		{`"GET /?api-key=k\" HTTP"`, `"GET /?api-key=REDACTED\" HTTP"`},
		{"no key here", "no key here"},
	}
	for _, tt := range tests {
		if got := server.RedactKeys(tt.in); got != tt.want {
			t.Errorf("RedactKeys(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A request fasthttp cannot parse is logged by fasthttp with its first
// line; the key in it must not reach the log.
func TestUnparsableRequestKeepsKeySecret(t *testing.T) {
	ts := start(t, server.Config{}, nil, nil)
	const key = "k3y-that-must-not-leak"
	requests := []string{
		"POST /?api-key=" + key + " HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
		"POST /?api-key=" + key + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: bogus\r\n\r\n",
		"POST /?api-key=" + key + " HTTP/1.1\r\nHost x\r\n\r\n",
		"GET /?api-key=" + key + " HTTP/9\x00\r\n\r\n",
	}
	for _, raw := range requests {
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprint(conn, raw)
		line, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if !strings.HasPrefix(line, "HTTP/1.1 4") {
			t.Errorf("%q: answered %q, want a 4xx", raw, line)
		}
	}
	if err := ts.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := ts.logs.String(); strings.Contains(logs, key) {
		t.Errorf("log carries the key:\n%s", logs)
	}
}
