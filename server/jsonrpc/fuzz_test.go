package jsonrpc

import (
	"bytes"
	stdjson "encoding/json"
	"testing"
)

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`,
		`{"jsonrpc":"2.0","id":"abc","method":"m","params":{"a":[1,{"b":"}"}]}}`,
		`{"jsonrpc":"2.0","id":18446744073709551615,"method":"m","params":[1,"x",null]}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"m","params":"x"}`,
		`{"jsonrpc":"2.0","id":null,"m\u0065thod":"a\"b"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},5,{"jsonrpc":"1.0"}]`,
		`[]`, `{}`, `1`, `"x"`, `{"jsonrpc":"2.0",`, "\xff", ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, perr := Parse(body)
		var out []byte
		if perr != nil {
			if len(msg.Requests) != 0 {
				t.Fatalf("whole-body error with %d requests", len(msg.Requests))
			}
			out = AppendError(out, nil, perr)
			if !stdjson.Valid(out) {
				t.Fatalf("invalid JSON output %q", out)
			}
			return
		}
		if len(msg.Requests) == 0 || len(msg.Requests) > MaxBatch {
			t.Fatalf("%d requests", len(msg.Requests))
		}
		for _, r := range msg.Requests {
			if w := r.Weight(); w < 1 || w > len(body)+1 {
				t.Fatalf("weight %d of a %d-byte body", w, len(body))
			}
			var one []byte
			if r.Err != nil {
				one = AppendError(nil, r.ID, r.Err)
			} else {
				var err error
				one, err = AppendResult(nil, r.ID, map[string]any{"method": r.Method, "params": r.Params})
				if err != nil {
					t.Fatalf("encode: %v", err)
				}
				_ = DecodeParams(r.Params, nil, nil)
				var p testParams
				_ = DecodeParams(r.Params, &p, testFields)
			}
			if !stdjson.Valid(one) {
				t.Fatalf("invalid JSON output %q for %q", one, body)
			}
			var env struct {
				ID stdjson.RawMessage `json:"id"`
			}
			if err := stdjson.Unmarshal(one, &env); err != nil {
				t.Fatalf("decode own output %q: %v", one, err)
			}
			want := r.ID
			if len(want) == 0 {
				want = []byte("null")
			}
			if !bytes.Equal(env.ID, want) {
				t.Fatalf("id %q echoed as %q", want, env.ID)
			}
			if len(r.ID) > 0 && !bytes.Contains(body, r.ID) {
				t.Fatalf("id %q is not a slice of the body", r.ID)
			}
			out = append(out, one...)
		}
	})
}
