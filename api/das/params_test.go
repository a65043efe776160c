package das

import (
	"context"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/server"
)

// TestBadInput checks that every malformed request gets the spec's HTTP
// status and code, with a message naming what is wrong, and no panic.
func TestBadInput(t *testing.T) {
	e := newEnv(t)
	long := `"` + strings.Repeat("1", 50) + `"`
	many := `["` + strings.Repeat(`11111111111111111111111111111111","`, 1000) + `11111111111111111111111111111111"]`
	tests := []struct {
		name, method, params string
		status, code         int
		msg                  string
	}{
		{"missing id", "getAsset", `{}`, 400, -32602, "missing field `id`"},
		{"null params", "getAsset", `null`, 400, -32602, "missing field `id`"},
		{"bad base58", "getAsset", `{"id":"0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"}`, 400, -32602, "invalid value for field `id`"},
		{"short key", "getAsset", `{"id":"1111111111111111111111111111111"}`, 400, -32602, "want 32"},
		{"too long", "getAsset", `{"id":` + long + `}`, 400, -32602, "not a base58 32-byte address"},
		{"empty id", "getAsset", `{"id":""}`, 400, -32602, "field `id`"},
		{"id a number", "getAsset", `{"id":12}`, 400, -32602, "field `id`"},
		{"unknown field", "getAsset", `{"id":"11111111111111111111111111111111","foo":1}`, 400, -32602, "unknown field `foo`"},
		{"unknown option", "getAsset", `{"id":"11111111111111111111111111111111","options":{"showEverything":true}}`, 400, -32602, "showEverything"},
		{"option wrong type", "getAsset", `{"id":"11111111111111111111111111111111","options":{"showFungible":"yes"}}`, 400, -32602, "showFungible"},
		{"options not an object", "getAsset", `{"id":"11111111111111111111111111111111","options":[1]}`, 400, -32602, "field `options`: expected an object"},
		{"options a number", "getAsset", `{"id":"11111111111111111111111111111111","options":5}`, 400, -32602, "field `options`: expected an object"},
		{"options a string", "getAsset", `{"id":"11111111111111111111111111111111","options":"x"}`, 400, -32602, "field `options`: expected an object"},
		// Refused by the JSON-RPC envelope parser before any method runs,
		// with the protocol's HTTP 200, as for every method.
		{"params a string", "getAsset", `"x"`, 200, -32602, "params must be an object or an array"},
		{"unknown asset", "getAsset", `{"id":"11111111111111111111111111111111"}`, 404, -32004, "Asset not found"},
		{"batch missing ids", "getAssetBatch", `{}`, 400, -32602, "missing field `ids`"},
		{"batch ids not a list", "getAssetBatch", `{"ids":"x"}`, 400, -32602, "field `ids`"},
		{"batch bad id", "getAssetBatch", `{"ids":["11111111111111111111111111111111","abc0"]}`, 400, -32602, "field `ids`: element 1: \"abc0\" is not valid base58"},
		{"batch id a number", "getAssetBatch", `{"ids":[7]}`, 400, -32602, "element 0: expected a base58 string"},
		{"batch too many", "getAssetBatch", `{"ids":` + many + `}`, 400, -32602, "at most 1000"},
		{"alias too many", "getAssets", `{"ids":` + many + `}`, 400, -32602, "at most 1000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := e.call(tc.method, tc.params)
			if a.Error == nil {
				t.Fatalf("result %s, want error %d", a.Result, tc.code)
			}
			if a.Status != tc.status || a.Error.Code != tc.code || !strings.Contains(a.Error.Message, tc.msg) {
				t.Errorf("HTTP %d %d %q, want HTTP %d %d containing %q",
					a.Status, a.Error.Code, a.Error.Message, tc.status, tc.code, tc.msg)
			}
		})
	}
}

func TestMalformedBody(t *testing.T) {
	e := newEnv(t)
	a := e.post(`{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":`)
	if a.Error == nil || a.Error.Code != -32700 {
		t.Fatalf("got %+v, want a parse error", a)
	}
}

// TestBatchUnknownIDs answers null at each position of an unknown id.
func TestBatchUnknownIDs(t *testing.T) {
	e := newEnv(t)
	a := e.call("getAssetBatch", `{"ids":["11111111111111111111111111111111","So11111111111111111111111111111111111111112"]}`)
	if a.Error != nil || a.Status != 200 {
		t.Fatalf("HTTP %d error %+v", a.Status, a.Error)
	}
	if got := string(a.Result); got != "[null,null]" {
		t.Errorf("result %s, want [null,null]", got)
	}
	a = e.call("getAssetBatch", `{"ids":[]}`)
	if a.Error != nil || string(a.Result) != "[]" {
		t.Errorf("empty batch: %s %+v", a.Result, a.Error)
	}
}

// TestKeyAndRateLimit checks the spec's 401 and 429 answers on getAsset.
func TestKeyAndRateLimit(t *testing.T) {
	e := newEnvWith(t, server.Config{RateLimitPerKey: 1, RateLimitBurst: 1})
	body := `{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":"11111111111111111111111111111111"}}`
	noKey := &env{t: t, s: e.s, url: strings.Split(e.url, "?")[0]}
	if a := noKey.post(body); a.Status != 401 || a.Error == nil || a.Error.Code != -32001 {
		t.Errorf("no key: HTTP %d %+v, want 401 -32001", a.Status, a.Error)
	}
	badKey := &env{t: t, s: e.s, url: strings.Split(e.url, "?")[0] + "?api-key=nope"}
	if a := badKey.post(body); a.Status != 401 || a.Error == nil || a.Error.Code != -32001 {
		t.Errorf("bad key: HTTP %d %+v, want 401 -32001", a.Status, a.Error)
	}
	first := e.post(body)
	if first.Status != 404 {
		t.Fatalf("first request: HTTP %d, want 404 (unknown asset)", first.Status)
	}
	a := e.post(body)
	if a.Status != 429 || a.Error == nil || a.Error.Code != -32029 {
		t.Errorf("second request within the limit's second: HTTP %d %+v, want 429 -32029", a.Status, a.Error)
	}
}

// TestStoreFailure: when the store cannot answer (here asset_docs is
// gone), getAsset answers HTTP 500 / -32000 without details, and the
// server keeps serving.
func TestStoreFailure(t *testing.T) {
	e := newEnv(t)
	if err := e.s.Exec(context.Background(), "DROP TABLE asset_docs", nil); err != nil {
		t.Fatal(err)
	}
	a := e.call("getAsset", `{"id":"11111111111111111111111111111111"}`)
	if a.Status != 500 || a.Error == nil || a.Error.Code != -32000 || a.Error.Message != "Internal error" {
		t.Errorf("HTTP %d %+v, want 500 -32000 \"Internal error\"", a.Status, a.Error)
	}
	if a := e.call("getAsset", `{}`); a.Status != 400 {
		t.Errorf("after a failure: HTTP %d, want the server still answering (400)", a.Status)
	}
}
