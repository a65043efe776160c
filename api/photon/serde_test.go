package photon

import (
	"errors"
	"testing"

	"github.com/dasch-labs/dasch/server/jsonrpc"
)

func TestUnexpected(t *testing.T) {
	for raw, want := range map[string]string{
		`5`:          "integer `5`",
		`-5`:         "integer `-5`",
		`1.5`:        "floating point `1.5`",
		`1e3`:        "floating point `1e3`",
		`true`:       "boolean `true`",
		`"a\"b"`:     `string "a\"b"`,
		`"\u00e9\/"`: `string "é/"`,
		`[1]`:        "sequence",
		`{}`:         "map",
		`null`:       "null",
	} {
		if got := unexpected([]byte(raw)); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}

func TestBase58Error(t *testing.T) {
	for s, want := range map[string]string{
		"abc":    "",
		"":       "",
		"abl":    "provided string contained invalid character 'l' at byte 2",
		"0":      "provided string contained invalid character '0' at byte 0",
		"a'":     `provided string contained invalid character '\'' at byte 1`,
		"ab\x01": `provided string contained invalid character '\u{1}' at byte 2`,
		"aé":     "provided string contained non-ascii character starting at byte 1",
	} {
		if got := base58Error(s); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}

func TestLimit(t *testing.T) {
	for raw, want := range map[string]string{
		`0`:                    "",
		`1000`:                 "",
		`1001`:                 "invalid value: integer `1001`, expected a value less than or equal to 1000",
		`-1`:                   "invalid value: integer `-1`, expected u64",
		`18446744073709551616`: "invalid value: integer `18446744073709551616`, expected u64",
		`"5"`:                  `invalid type: string "5", expected u64`,
		`2.5`:                  "invalid type: floating point `2.5`, expected u64",
		`true`:                 "invalid type: boolean `true`, expected u64",
	} {
		var l Limit
		err := l.UnmarshalJSON([]byte(raw))
		var je *jsonrpc.Error
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", raw, err)
		case want != "" && (!errors.As(err, &je) || je.Message != want || je.Code != jsonrpc.CodeInvalidParams):
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

func TestDataSlice(t *testing.T) {
	data := []byte{0, 1, 2, 3, 4}
	for _, tt := range []struct {
		s    DataSlice
		want string
	}{
		{DataSlice{0, 2}, "\x00\x01"},
		{DataSlice{3, 10}, "\x03\x04"},
		{DataSlice{5, 1}, ""},
		{DataSlice{9, 1}, ""},
		{DataSlice{1, 0}, ""},
		{DataSlice{1, 18446744073709551615}, "\x01\x02\x03\x04"},
	} {
		if got := string(tt.s.apply(data)); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}
