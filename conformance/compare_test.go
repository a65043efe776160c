package conformance

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name, got, want string
		ignore          []string
		diff            string // "" when equal
	}{
		{"key order free", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, nil, ""},
		{"array order kept", `[1,2]`, `[2,1]`, nil, "[0]: got 1, want 2"},
		{"big integers exact", `{"d":216172782113783809}`, `{"d":216172782113783808}`, nil, "d: got 216172782113783809, want 216172782113783808"},
		{"number spelling", `{"a":1.0}`, `{"a":1}`, nil, "a: got 1.0, want 1"},
		{"explicit null", `{"a":null}`, `{}`, nil, "a: unexpected member null"},
		{"missing member", `{}`, `{"a":null}`, nil, "a: missing, want null"},
		{"null vs value", `{"c":null}`, `{"c":"x"}`, nil, `c: got null, want "x"`},
		{"nested path", `{"v":{"items":[{"h":"a"}]}}`, `{"v":{"items":[{"h":"b"}]}}`, nil, `v.items[0].h: got "a", want "b"`},
		{"length", `[1]`, `[1,2]`, nil, "(root): 1 elements, want 2"},
		{"ignored path", `{"value":{"p":{"a":[1]},"x":1}}`, `{"value":{"p":{"a":[]},"x":1}}`, []string{"value.p"}, ""},
		{"ignored path absent", `{"x":1}`, `{"x":1}`, []string{"value.p"}, ""},
		{"types differ", `{"a":"1"}`, `{"a":1}`, nil, `a: got "1", want 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := compare([]byte(tt.got), []byte(tt.want), tt.ignore)
			if err != nil {
				t.Fatal(err)
			}
			if d != tt.diff {
				t.Errorf("diff %q, want %q", d, tt.diff)
			}
		})
	}
}

func TestParseDeviations(t *testing.T) {
	doc := `# Compat

| method | notes |
|---|---|
| getX | not a deviation |

Some text.

| case | reason |
|---|---|
| ` + "`a-case`" + ` | because | with a pipe |
| other | why |

| case | reason |
`
	got, err := ParseDeviations(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a-case"] != "because | with a pipe" || got["other"] != "why" {
		t.Errorf("got %v", got)
	}
	if _, err := ParseDeviations(strings.NewReader("# nothing\n")); err == nil {
		t.Error("a document without the table must be an error")
	}
}

func TestCheckError(t *testing.T) {
	want := &ExpectedError{Code: -32602, Message: "missing field `x`", MessageMatch: "contains"}
	if d := checkError(&rpcError{Code: -32602, Message: "invalid: missing field `x` at line 1"}, want); d != "" {
		t.Errorf("contains: %s", d)
	}
	if d := checkError(&rpcError{Code: -32000, Message: "missing field `x`"}, want); d == "" {
		t.Error("code mismatch passed")
	}
	exact := &ExpectedError{Code: -32000, Message: "m", MessageMatch: "exact"}
	if d := checkError(&rpcError{Code: -32000, Message: "m."}, exact); d == "" {
		t.Error("exact mismatch passed")
	}
	if d := checkError(nil, exact); d == "" {
		t.Error("a result passed for an expected error")
	}
}

// A field deviation is undone before comparing, recorded, and does not
// hide any other difference.
func TestFieldDeviations(t *testing.T) {
	want := `{"interface":"V1_NFT","id":"A","burnt":false}`
	tests := []struct {
		name, got string
		diff      bool
		applied   int
	}{
		{"same", `{"interface":"V1_NFT","id":"A","burnt":false}`, false, 0},
		{"V2 interface", `{"interface":"MplBubblegumV2","id":"A","burnt":false}`, false, 1},
		{"V2 interface and another difference", `{"interface":"MplBubblegumV2","id":"A","burnt":true}`, true, 1},
		{"other interface", `{"interface":"V1_PRINT","id":"A","burnt":false}`, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			applied := map[string]bool{}
			msg, err := compareAssets(json.RawMessage(tt.got), json.RawMessage(want), applied)
			if err != nil {
				t.Fatal(err)
			}
			if (msg != "") != tt.diff || len(applied) != tt.applied {
				t.Errorf("diff %q, applied %v", msg, applied)
			}
		})
	}
}
