package server_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/upstream"
)

// forwardingServer serves the test registry with node as its upstream.
func forwardingServer(t testing.TB, nodeURL string, timeout time.Duration) *testServer {
	t.Helper()
	f, err := upstream.New(nodeURL, upstream.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return start(t, server.Config{Upstream: f}, nil, nil)
}

func testNode(t testing.TB) (*rpcnode.Node, solana.Pubkey) {
	t.Helper()
	n := rpcnode.New(map[uint64][]byte{77: []byte(`{"blockhash":"x"}`)})
	t.Cleanup(n.Close)
	n.Record()
	acct := solana.Pubkey{1, 2, 3}
	n.SetAccount(1, acct, &rpcnode.Account{Owner: solana.Pubkey{9}, Lamports: 42, Data: []byte("lookup table")})
	return n, acct
}

// TestForwardSingle: a call dasch does not implement is answered by the
// node, streamed, under the caller's id; the node's own errors pass
// through; the caller's key reaches the node by no way.
func TestForwardSingle(t *testing.T) {
	n, acct := testNode(t)
	s := forwardingServer(t, n.URL()+"/?api-key=node-key", 5*time.Second)
	info := func(key string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":"q","method":"getAccountInfo","params":[%q,{"encoding":"base64"}]}`, key)
	}
	data := base64.StdEncoding.EncodeToString([]byte("lookup table"))
	for _, c := range []struct {
		name, body string
		status     int
		want       string // a part of the answer
	}{
		{"getSlot", `{"jsonrpc":"2.0","id":7,"method":"getSlot"}`, 200, `"result":77,"id":7`},
		{"getAccountInfo", info(acct.String()), 200, `"lamports":42,"owner":"` + solana.Pubkey{9}.String() + `"`},
		{"getAccountInfo data", info(acct.String()), 200, `"data":["` + data + `","base64"]`},
		{"getAccountInfo of nothing", info(solana.Pubkey{4}.String()), 200, `"value":null}`},
		{"node error", `{"jsonrpc":"2.0","id":1,"method":"getVersionX"}`, 200, `"error":{"code":-32601,"message":"Method not found"}`},
		{"local method stays local", `{"jsonrpc":"2.0","id":2,"method":"getIndexerSlot"}`, 200, `"result":123456789`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, b := send(t, client, http.MethodPost, s.url+"/?api-key=good", c.body,
				map[string]string{"Content-Type": "application/json", "X-Api-Key": "good", "Authorization": "Bearer secret"})
			if resp.StatusCode != c.status || !bytes.Contains(b, []byte(c.want)) || !json.Valid(b) {
				t.Errorf("status %d body %s, want %d with %s", resp.StatusCode, b, c.status, c.want)
			}
		})
	}
	seen := n.Seen()
	if len(seen) != 5 {
		t.Fatalf("node saw %d requests, want the 5 forwarded", len(seen))
	}
	for _, r := range seen {
		if r.Query != "api-key=node-key" || r.Header.Get("X-Api-Key") != "" || r.Header.Get("Authorization") != "" {
			t.Errorf("node got %s with query %q and headers %v: the caller's key or credentials were forwarded", r.Method, r.Query, r.Header)
		}
	}
	// A forwarded notification is sent and not answered.
	if st, _, b := do(t, http.MethodPost, s.url+"/?api-key=good", `{"jsonrpc":"2.0","method":"getSlot"}`); st != http.StatusNoContent || len(b) != 0 {
		t.Errorf("notification: %d %q, want 204", st, b)
	}
}

// TestForwardStreams: a large answer is passed on as it arrives, not
// assembled (no Content-Length), and whole.
func TestForwardStreams(t *testing.T) {
	n, _ := testNode(t)
	owner := solana.Pubkey{7}
	const count = 20000
	n.Generate(owner, count, func(i int) (solana.Pubkey, rpcnode.Account) {
		var k solana.Pubkey
		k[0], k[1], k[2] = 5, byte(i>>8), byte(i)
		return k, rpcnode.Account{Owner: owner, Lamports: uint64(i), Data: make([]byte, 64)}
	})
	s := forwardingServer(t, n.URL(), 5*time.Second)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"getProgramAccounts","params":[%q,{"encoding":"base64"}]}`, owner)
	resp, b := send(t, client, http.MethodPost, s.url+"/?api-key=good", body, map[string]string{"Content-Type": "application/json"})
	var got struct {
		Result []struct {
			Pubkey string `json:"pubkey"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &got); err != nil || len(got.Result) != count {
		t.Fatalf("answer of %d bytes: %v, %d accounts, want %d", len(b), err, len(got.Result), count)
	}
	if resp.ContentLength != -1 {
		t.Errorf("Content-Length %d: the answer was assembled, not streamed", resp.ContentLength)
	}
}

// TestForwardBatch: a batch mixing local and forwarded calls answers
// each, in order, under its id.
func TestForwardBatch(t *testing.T) {
	n, acct := testNode(t)
	n.FailCall("getMultipleAccounts", "bad json")
	s := forwardingServer(t, n.URL(), 5*time.Second)
	body := `[{"jsonrpc":"2.0","id":"local","method":"getIndexerSlot"},` +
		`{"jsonrpc":"2.0","id":"slot","method":"getSlot"},` +
		`{"jsonrpc":"2.0","method":"getSlot"},` +
		fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"getAccountInfo","params":[%q,{"encoding":"base64"}]},`, acct) +
		`{"jsonrpc":"2.0","id":4,"method":"getVersionX"},` +
		`{"jsonrpc":"2.0","id":5,"method":"getMultipleAccounts","params":[[]]},` +
		`{"jsonrpc":"2.0","id":6,"method":"echo","params":[1]}]`
	st, _, b := do(t, http.MethodPost, s.url+"/?api-key=good", body)
	var got []response
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	type want struct {
		id, result string
		code       int
	}
	wants := []want{
		{`"local"`, `123456789`, 0},
		{`"slot"`, `77`, 0},
		{`3`, `"lamports":42`, 0},
		{`4`, ``, -32601}, // the node's error
		{`5`, ``, -32603}, // the node's answer is not JSON
		{`6`, `"params":[1]`, 0},
	}
	if st != http.StatusOK || len(got) != len(wants) {
		t.Fatalf("status %d, %d answers, want 200 and %d: %s", st, len(got), len(wants), b)
	}
	for i, w := range wants {
		g := got[i]
		ok := string(g.ID) == w.id
		if w.code != 0 {
			ok = ok && g.Error != nil && g.Error.Code == w.code
		} else {
			ok = ok && g.Error == nil && strings.Contains(string(g.Result), w.result)
		}
		if !ok {
			t.Errorf("answer %d: id %s result %s error %+v, want id %s with %q / code %d", i, g.ID, g.Result, g.Error, w.id, w.result, w.code)
		}
	}
}

// TestForwardFailures: the node failing is the answer's error, with a
// status saying so, and a slow node is cut at the upstream's own
// deadline, which is not the request's.
func TestForwardFailures(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer limited.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>bad gateway</html>"))
	}))
	defer html.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL
	gone.Close()

	for _, c := range []struct {
		name, url string
		batch     bool
		status    int
		code      int
	}{
		{"slow", slow.URL, false, http.StatusGatewayTimeout, -32003},
		{"slow in a batch", slow.URL, true, http.StatusGatewayTimeout, -32003},
		{"429", limited.URL, false, http.StatusTooManyRequests, -32029},
		{"not JSON", html.URL, false, http.StatusBadGateway, -32603},
		{"not JSON in a batch", html.URL, true, http.StatusBadGateway, -32603},
		{"unreachable", goneURL, false, http.StatusBadGateway, -32002},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := forwardingServer(t, c.url, 300*time.Millisecond)
			body := `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`
			if c.batch {
				body = "[" + body + "]"
			}
			began := time.Now()
			st, _, b := do(t, http.MethodPost, s.url+"/?api-key=good", body)
			if took := time.Since(began); took > 2*time.Second {
				t.Errorf("answered after %v, past the upstream deadline", took)
			}
			b = bytes.TrimSuffix(bytes.TrimPrefix(b, []byte("[")), []byte("]"))
			r := decode(t, b)
			if st != c.status || r.Error == nil || r.Error.Code != c.code || string(r.ID) != "1" {
				t.Errorf("status %d %s, want %d with code %d", st, b, c.status, c.code)
			}
		})
	}
}

// TestNoUpstream: without one, an unknown method is -32601 as before.
func TestNoUpstream(t *testing.T) {
	s := start(t, server.Config{}, nil, nil)
	st, _, b := do(t, http.MethodPost, s.url+"/?api-key=good", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)
	if r := decode(t, b); st != http.StatusOK || r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("status %d %s, want -32601", st, b)
	}
}
