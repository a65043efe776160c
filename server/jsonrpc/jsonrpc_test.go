package jsonrpc

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

func TestParseSingle(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		wholeErr int // code of a whole-body error, 0 for none
		code     int // code of the element error, 0 for a valid request
		id       string
		method   string
		params   string
	}{
		{name: "minimal", body: `{"jsonrpc":"2.0","id":1,"method":"m"}`, id: "1", method: "m"},
		{name: "string id", body: `{"jsonrpc":"2.0","id":"abc","method":"m"}`, id: `"abc"`, method: "m"},
		{name: "float id", body: `{"jsonrpc":"2.0","id":1.0,"method":"m"}`, id: "1.0", method: "m"},
		{name: "exp id", body: `{"jsonrpc":"2.0","id":1e3,"method":"m"}`, id: "1e3", method: "m"},
		{name: "big id", body: `{"jsonrpc":"2.0","id":18446744073709551615,"method":"m"}`, id: "18446744073709551615", method: "m"},
		{name: "huge id", body: `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}`, id: "123456789012345678901234567890", method: "m"},
		{name: "escaped string id", body: `{"jsonrpc":"2.0","id":"a\"b\u00e9","method":"m"}`, id: `"a\"b\u00e9"`, method: "m"},
		{name: "null id", body: `{"jsonrpc":"2.0","id":null,"method":"m"}`, id: "null", method: "m"},
		{name: "absent id", body: `{"jsonrpc":"2.0","method":"m"}`, id: "", method: "m"},
		{name: "whitespace", body: " \n{ \"jsonrpc\" : \"2.0\" , \"id\" : 7 , \"method\" : \"m\" , \"params\" : [ 1 ] }\t", id: "7", method: "m", params: "[ 1 ]"},
		{name: "object params", body: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,{"b":"}"}]}}`, id: "1", method: "m", params: `{"a":[1,{"b":"}"}]}`},
		{name: "null params", body: `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`, id: "1", method: "m"},
		{name: "unknown member ignored", body: `{"jsonrpc":"2.0","id":1,"method":"m","extra":{"x":1}}`, id: "1", method: "m"},
		{name: "escaped method", body: `{"jsonrpc":"2.0","id":1,"method":"get\u0053lot"}`, id: "1", method: "getSlot"},
		{name: "escaped member name", body: `{"jsonrpc":"2.0","id":1,"\u006dethod":"m"}`, id: "1", method: "m"},
		{name: "escaped version", body: `{"jsonrpc":"2\u002e0","id":1,"method":"m"}`, id: "1", method: "m"},

		{name: "invalid json", body: `{"jsonrpc":"2.0",`, wholeErr: CodeParseError},
		{name: "empty body", body: ``, wholeErr: CodeParseError},
		{name: "invalid UTF-8 in id", body: "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"m\"}", wholeErr: CodeParseError},
		{name: "invalid UTF-8 in params", body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[\"\xc3\"]}", wholeErr: CodeParseError},
		{name: "trailing garbage", body: `{"jsonrpc":"2.0","id":1,"method":"m"} x`, wholeErr: CodeParseError},
		{name: "no jsonrpc", body: `{"id":1,"method":"m"}`, code: CodeInvalidRequest, id: "1"},
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":"x","method":"m"}`, code: CodeInvalidRequest, id: `"x"`},
		{name: "jsonrpc number", body: `{"jsonrpc":2.0,"id":1,"method":"m"}`, code: CodeInvalidRequest, id: "1"},
		{name: "member names are case-sensitive", body: `{"JSONRPC":"2.0","id":1,"method":"m"}`, code: CodeInvalidRequest, id: "1"},
		{name: "no method", body: `{"jsonrpc":"2.0","id":1}`, code: CodeInvalidRequest, id: "1"},
		{name: "method number", body: `{"jsonrpc":"2.0","id":1,"method":5}`, code: CodeInvalidRequest, id: "1"},
		{name: "method empty", body: `{"jsonrpc":"2.0","id":1,"method":""}`, code: CodeInvalidRequest, id: "1"},
		{name: "id object", body: `{"jsonrpc":"2.0","id":{},"method":"m"}`, code: CodeInvalidRequest},
		{name: "id bool", body: `{"jsonrpc":"2.0","id":true,"method":"m"}`, code: CodeInvalidRequest},
		{name: "params string", body: `{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`, code: CodeInvalidParams, id: "1"},
		{name: "params number", body: `{"jsonrpc":"2.0","id":1,"method":"m","params":3}`, code: CodeInvalidParams, id: "1"},
		{name: "params bool", body: `{"jsonrpc":"2.0","id":1,"method":"m","params":false}`, code: CodeInvalidParams, id: "1"},
		{name: "scalar body", body: `1`, code: CodeInvalidRequest},
		{name: "string body", body: `"x"`, code: CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := Parse([]byte(tt.body))
			if tt.wholeErr != 0 {
				if err == nil || err.Code != tt.wholeErr {
					t.Fatalf("whole error = %v, want code %d", err, tt.wholeErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected whole error %v", err)
			}
			if msg.Batch || len(msg.Requests) != 1 {
				t.Fatalf("got %+v, want one request", msg)
			}
			r := msg.Requests[0]
			if string(r.ID) != tt.id {
				t.Errorf("id = %q, want %q", r.ID, tt.id)
			}
			if tt.code != 0 {
				if r.Err == nil || r.Err.Code != tt.code {
					t.Fatalf("err = %v, want code %d", r.Err, tt.code)
				}
				return
			}
			if r.Err != nil {
				t.Fatalf("unexpected err %v", r.Err)
			}
			if r.Method != tt.method {
				t.Errorf("method = %q, want %q", r.Method, tt.method)
			}
			if string(r.Params) != tt.params {
				t.Errorf("params = %q, want %q", r.Params, tt.params)
			}
		})
	}
}

func TestParseBatch(t *testing.T) {
	msg, err := Parse([]byte(`[{"jsonrpc":"2.0","id":1,"method":"a"}, 5, {"jsonrpc":"1.0","id":"z","method":"b"}, {"jsonrpc":"2.0","method":"c","params":[]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if !msg.Batch || len(msg.Requests) != 4 {
		t.Fatalf("got %+v", msg)
	}
	r := msg.Requests
	if r[0].Err != nil || r[0].Method != "a" || string(r[0].ID) != "1" {
		t.Errorf("element 0: %+v", r[0])
	}
	if r[1].Err == nil || r[1].Err.Code != CodeInvalidRequest || r[1].ID != nil {
		t.Errorf("element 1: %+v", r[1])
	}
	if r[2].Err == nil || r[2].Err.Code != CodeInvalidRequest || string(r[2].ID) != `"z"` {
		t.Errorf("element 2: %+v", r[2])
	}
	if r[3].Err != nil || r[3].Method != "c" || r[3].ID != nil || string(r[3].Params) != "[]" {
		t.Errorf("element 3: %+v", r[3])
	}

	for _, body := range []string{`[]`, ` [ ] `} {
		if _, err := Parse([]byte(body)); err == nil || err.Code != CodeInvalidRequest {
			t.Errorf("%q: err = %v, want invalid request", body, err)
		}
	}

	one := `{"jsonrpc":"2.0","id":1,"method":"a"}`
	full := "[" + strings.TrimSuffix(strings.Repeat(one+",", MaxBatch), ",") + "]"
	if msg, err := Parse([]byte(full)); err != nil || len(msg.Requests) != MaxBatch {
		t.Errorf("batch of %d: err %v, %d requests", MaxBatch, err, len(msg.Requests))
	}
	over := "[" + strings.TrimSuffix(strings.Repeat(one+",", MaxBatch+1), ",") + "]"
	if _, err := Parse([]byte(over)); err == nil || err.Code != CodeInvalidRequest {
		t.Errorf("batch of %d: err = %v, want invalid request", MaxBatch+1, err)
	}
}

func TestAppendResult(t *testing.T) {
	tests := []struct {
		name   string
		id     json.RawMessage
		result any
		want   string
	}{
		{"number", json.RawMessage(`7`), uint64(42), `{"jsonrpc":"2.0","id":7,"result":42}`},
		{"nil id", nil, "x", `{"jsonrpc":"2.0","id":null,"result":"x"}`},
		{"raw result", json.RawMessage(`"abc"`), json.RawMessage(`{"a":[1,2]}`), `{"jsonrpc":"2.0","id":"abc","result":{"a":[1,2]}}`},
		{"nil result", json.RawMessage(`1e3`), nil, `{"jsonrpc":"2.0","id":1e3,"result":null}`},
		{"struct", json.RawMessage(`1`), struct {
			A int    `json:"a"`
			B string `json:"b,omitempty"`
		}{A: 1}, `{"jsonrpc":"2.0","id":1,"result":{"a":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AppendResult([]byte("prefix"), tt.id, tt.result)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "prefix"+tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	dst := []byte("keep")
	got, err := AppendResult(dst, nil, func() {})
	if err == nil || string(got) != "keep" {
		t.Errorf("unmarshallable result: got %q, %v", got, err)
	}
}

func TestAppendError(t *testing.T) {
	tests := []struct {
		name string
		id   json.RawMessage
		err  *Error
		want string
	}{
		{"plain", json.RawMessage(`1`), MethodNotFound(), `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`},
		{"null id", nil, ParseError(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{"data", json.RawMessage(`"x"`), InvalidParams("bad").WithData(map[string]int{"n": 1}), `{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"bad","data":{"n":1}}}`},
		{"bad data dropped", json.RawMessage(`2`), ServerError("s").WithData(func() {}), `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"s"}}`},
		{"escaping", json.RawMessage(`3`), ServerError("a\"b\\c\n\x01\xff<é>"), `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"a\"b\\c\n\u0001\ufffd<é>"}}`},
		{"nil error", json.RawMessage(`4`), nil, `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendError(nil, tt.id, tt.err)
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !stdjson.Valid(got) {
				t.Errorf("invalid JSON %s", got)
			}
		})
	}
}

func TestErrorHelpers(t *testing.T) {
	e := Unauthorized("nope").WithStatus(401)
	if e.Code != CodeUnauthorized || e.HTTPStatus != 401 || e.Error() != "jsonrpc error -32001: nope" {
		t.Errorf("got %+v / %q", e, e.Error())
	}
	var target *Error
	if !errors.As(error(e), &target) {
		t.Error("errors.As failed")
	}
	codes := map[int]*Error{
		CodeParseError: ParseError(), CodeInvalidRequest: InvalidRequest("x"), CodeMethodNotFound: MethodNotFound(),
		CodeInvalidParams: InvalidParams("x"), CodeInternalError: Internal(), CodeServerError: ServerError("x"),
		CodeUnauthorized: Unauthorized("x"), CodeUnavailable: Unavailable("x"), CodeTimeout: Timeout("x"),
		CodeNotFound: NotFound("x"), CodeTooManyRequests: TooManyRequests("x"),
	}
	for code, e := range codes {
		if e.Code != code || e.HTTPStatus != 0 {
			t.Errorf("constructor for %d gave %+v", code, e)
		}
	}
	if MissingField("delegate").Message != "missing field `delegate`" {
		t.Error("MissingField message")
	}
}

type pubkey string

func (p *pubkey) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil || len(s) < 3 {
		return InvalidParams("bad pubkey")
	}
	*p = pubkey(s)
	return nil
}

type testParams struct {
	Delegate *string  `json:"delegate"`
	Mint     pubkey   `json:"mint"`
	Cursor   string   `json:"cursor,omitempty"`
	Limit    *uint64  `json:"limit"`
	Hashes   []string `json:"hashes"`
	Flag     bool     `json:"flag"`
}

var testFields = []string{"delegate", "mint", "cursor", "limit"}

func TestDecodeParams(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	s := func(v string) *string { return &v }
	tests := []struct {
		name   string
		raw    string
		fields []string
		want   testParams
		err    string // exact message of a *Error; empty for success
	}{
		{name: "absent", raw: ``, fields: testFields},
		{name: "null", raw: ` null `, fields: testFields},
		{name: "empty object", raw: `{}`, fields: testFields},
		{name: "empty array", raw: `[]`, fields: testFields},
		{name: "named", raw: `{"limit":5,"delegate":"d","mint":"abc","cursor":"c"}`, fields: testFields,
			want: testParams{Delegate: s("d"), Mint: "abc", Cursor: "c", Limit: u(5)}},
		{name: "positional", raw: `["d","abc",null,5]`, fields: testFields,
			want: testParams{Delegate: s("d"), Mint: "abc", Limit: u(5)}},
		{name: "positional prefix", raw: `["d"]`, fields: testFields, want: testParams{Delegate: s("d")}},
		{name: "null member", raw: `{"limit":null}`, fields: testFields},
		{name: "array field", raw: `{"hashes":["a","b"],"flag":true}`, fields: []string{"hashes", "flag"},
			want: testParams{Hashes: []string{"a", "b"}, Flag: true}},
		{name: "max u64", raw: `{"limit":18446744073709551615}`, fields: testFields, want: testParams{Limit: u(18446744073709551615)}},

		{name: "unknown of many", raw: `{"foo":1}`, fields: testFields,
			err: "unknown field `foo`, expected one of `delegate`, `mint`, `cursor`, `limit`"},
		{name: "unknown of one", raw: `{"delegate":"d","foo":1}`, fields: []string{"delegate"},
			err: "unknown field `foo`, expected `delegate`"},
		{name: "unknown of two", raw: `{"foo":1}`, fields: []string{"delegate", "mint"},
			err: "unknown field `foo`, expected `delegate` or `mint`"},
		{name: "unknown of none", raw: `{"foo":1}`, fields: nil, err: "unknown field `foo`, there are no fields"},
		{name: "escaped unknown", raw: `{"f\u006fo":1}`, fields: nil, err: "unknown field `foo`, there are no fields"},
		{name: "duplicate", raw: `{"limit":1,"limit":2}`, fields: testFields, err: "duplicate field `limit`"},
		{name: "wrong type", raw: `{"limit":"5"}`, fields: testFields, err: "invalid type for field `limit`: expected u64, got string"},
		{name: "wrong type positional", raw: `[1]`, fields: testFields, err: "invalid type for field `delegate`: expected string, got number"},
		{name: "wrong type array", raw: `{"hashes":"a"}`, fields: []string{"hashes"}, err: "invalid type for field `hashes`: expected array of string, got string"},
		{name: "wrong element type", raw: `{"hashes":[1]}`, fields: []string{"hashes"}, err: "invalid value for field `hashes`: expected array of string"},
		{name: "bool", raw: `{"flag":1}`, fields: []string{"flag"}, err: "invalid type for field `flag`: expected bool, got number"},
		{name: "negative", raw: `{"limit":-1}`, fields: testFields, err: "invalid value for field `limit`: expected u64, got -1"},
		{name: "fraction", raw: `{"limit":1.5}`, fields: testFields, err: "invalid value for field `limit`: expected u64, got 1.5"},
		{name: "overflow", raw: `{"limit":18446744073709551616}`, fields: testFields, err: "invalid value for field `limit`: expected u64, got 18446744073709551616"},
		{name: "custom type error", raw: `{"mint":"x"}`, fields: testFields, err: "invalid value for field `mint`: bad pubkey"},
		{name: "too many positional", raw: `["d","abc","c",1,2]`, fields: testFields, err: "invalid length 5, expected at most 4 params"},
		{name: "positional with no fields", raw: `[1]`, fields: nil, err: "invalid length 1, expected no params"},
		{name: "string params", raw: `"x"`, fields: testFields, err: "params must be an object or an array"},
		{name: "number params", raw: `12`, fields: testFields, err: "params must be an object or an array"},
		{name: "broken json", raw: `{"limit":`, fields: testFields, err: "params are not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got testParams
			err := DecodeParams([]byte(tt.raw), &got, tt.fields)
			if tt.err != "" {
				var je *Error
				if !errors.As(err, &je) {
					t.Fatalf("err = %v, want *Error %q", err, tt.err)
				}
				if je.Code != CodeInvalidParams || je.Message != tt.err {
					t.Fatalf("err = %d %q, want %q", je.Code, je.Message, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			if !bytes.Equal(g, w) {
				t.Errorf("got %s, want %s", g, w)
			}
		})
	}
}

func TestDecodeParamsNoFields(t *testing.T) {
	for _, raw := range []string{``, `null`, `{}`, `[]`, ` [ ] `} {
		if err := DecodeParams([]byte(raw), nil, nil); err != nil {
			t.Errorf("%q: %v", raw, err)
		}
	}
}

func TestDecodeParamsProgrammingErrors(t *testing.T) {
	var je *Error
	var notStruct int
	for _, dst := range []any{nil, notStruct, &notStruct, (*testParams)(nil)} {
		err := DecodeParams([]byte(`{}`), dst, []string{"a"})
		if err == nil || errors.As(err, &je) {
			t.Errorf("%T: err = %v, want a plain error", dst, err)
		}
	}
	var p testParams
	err := DecodeParams([]byte(`{"nosuch":1}`), &p, []string{"nosuch"})
	if err == nil || errors.As(err, &je) {
		t.Errorf("missing struct field: err = %v, want a plain error", err)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("a", 95) + "é" + strings.Repeat("b", 10)
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("x", 96), strings.Repeat("x", 96)},
		{strings.Repeat("x", 97), strings.Repeat("x", 96) + "…"},
		// The cut would split é (bytes 95 and 96): it moves before it.
		{long, strings.Repeat("a", 95) + "…"},
	} {
		if got := Clip(tc.in); got != tc.want {
			t.Errorf("Clip(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNotification: only a request without id is a notification; an
// element too malformed to be a request is not (it is answered).
func TestNotification(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"jsonrpc":"2.0","method":"m"}`, true},
		{`{"jsonrpc":"2.0","method":"m","params":"x"}`, true},
		{`{"jsonrpc":"2.0","id":null,"method":"m"}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"m"}`, false},
		{`{"method":"m"}`, false},
		{`{"jsonrpc":"2.0"}`, false},
		{`{"jsonrpc":"2.0","method":""}`, false},
	} {
		msg, err := Parse([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if got := msg.Requests[0].Notification; got != tc.want {
			t.Errorf("%s: notification %v, want %v", tc.body, got, tc.want)
		}
	}
}
