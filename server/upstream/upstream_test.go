package upstream

import (
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

func TestBody(t *testing.T) {
	for _, c := range []struct {
		name string
		r    jsonrpc.Request
		want string
	}{
		{"call", jsonrpc.Request{ID: json.RawMessage(`"a"`), Method: "getSlot", Params: json.RawMessage(`[{"commitment":"finalized"}]`)},
			`{"jsonrpc":"2.0","id":"a","method":"getSlot","params":[{"commitment":"finalized"}]}`},
		{"no params", jsonrpc.Request{ID: json.RawMessage(`1`), Method: "getSlot"}, `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`},
		{"null id", jsonrpc.Request{Method: "getSlot"}, `{"jsonrpc":"2.0","id":null,"method":"getSlot"}`},
		{"notification", jsonrpc.Request{Method: "getSlot", Notification: true}, `{"jsonrpc":"2.0","method":"getSlot"}`},
		{"escaped method", jsonrpc.Request{ID: json.RawMessage(`1`), Method: "a\"b"}, `{"jsonrpc":"2.0","id":1,"method":"a\"b"}`},
	} {
		if got := string(Body(&c.r)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestEncode(t *testing.T) {
	id := json.RawMessage(`"mine"`)
	for _, c := range []struct {
		name, raw string
		want      string // the encoded answer, or
		code      int    // the error's code
	}{
		{"result", `{"jsonrpc":"2.0","result":{"value":1},"id":9}`, `{"jsonrpc":"2.0","id":"mine","result":{"value":1}}`, 0},
		{"null result", `{"jsonrpc":"2.0","result":null,"id":9}`, `{"jsonrpc":"2.0","id":"mine","result":null}`, 0},
		{"node error", `{"jsonrpc":"2.0","error":{"code":-32016,"message":"Minimum context slot has not been reached"},"id":9}`, "", -32016},
		{"error without message", `{"jsonrpc":"2.0","error":{"code":-1},"id":9}`, "", -32603},
		{"both", `{"jsonrpc":"2.0","result":1,"error":{"code":-1,"message":"x"},"id":9}`, "", -32603},
		{"neither", `{"jsonrpc":"2.0","id":9}`, "", -32603},
		{"not 2.0", `{"result":1,"id":9}`, "", -32603},
		{"html", `<html>`, "", -32603},
		{"array", `[{"jsonrpc":"2.0","result":1,"id":9}]`, "", -32603},
		{"truncated", `{"jsonrpc":"2.0","result":{"value":`, "", -32603},
	} {
		got, err := Encode(id, []byte(c.raw))
		switch {
		case c.code != 0 && (err == nil || err.Code != c.code):
			t.Errorf("%s: %s %v, want error %d", c.name, got, err, c.code)
		case c.code == 0 && (err != nil || string(got) != c.want):
			t.Errorf("%s: %s %v, want %s", c.name, got, err, c.want)
		}
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "localhost:8899", "ftp://x", "http://", "rpc:http://x"} {
		if _, err := New(u, Options{}); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
	f, err := New("https://node.example/?api-key=secret", Options{})
	if err != nil || f.Host() != "node.example" || f.Timeout() != DefaultTimeout {
		t.Errorf("New: %v %v", f, err)
	}
}

// FuzzEncode: whatever a node answers, Encode returns valid JSON under
// the caller's id or an error, and never panics.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","result":{"value":1},"id":9}`,
		`{"jsonrpc":"2.0","error":{"code":-32016,"message":"m","data":{"x":1}},"id":9}`,
		`{"jsonrpc":"2.0","result":null}`, `<html>`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := Encode(json.RawMessage(`7`), raw)
		if err != nil {
			if got != nil {
				t.Fatalf("both an answer and an error")
			}
			if !json.Valid(jsonrpc.AppendError(nil, json.RawMessage(`7`), err)) {
				t.Fatalf("error %v encodes to invalid JSON", err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("answer %q to %q is not JSON", got, raw)
		}
	})
}
