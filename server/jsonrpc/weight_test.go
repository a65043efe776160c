package jsonrpc

import "testing"

func TestWeight(t *testing.T) {
	for _, tc := range []struct {
		params string
		want   int
	}{
		{``, 1},
		{`{}`, 1},
		{`{"id":"a"}`, 1},
		{`{"ids":["a","b","c"]}`, 4},
		{`{"ids":[],"x":[1]}`, 2},
		{`[["a","b"]]`, 3},
		{`["a",["b"],["c","d"]]`, 4},
		{`{"nested":{"ids":["a","b"]}}`, 1},
		{` { "ids" : [ 1 , 2 ] } `, 3},
	} {
		r := Request{Params: []byte(tc.params)}
		if got := r.Weight(); got != tc.want {
			t.Errorf("Weight(%s) = %d, want %d", tc.params, got, tc.want)
		}
	}
	if got := (&Request{Params: []byte(`{"ids":[1,2]}`), Err: InvalidRequest("x")}).Weight(); got != 1 {
		t.Errorf("a refused element weighs %d", got)
	}
}
