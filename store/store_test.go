package store

import (
	"maps"
	"testing"
)

func TestEscapeParam(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"18446744073709551615", "18446744073709551615"},
		{"it's", "it's"},
		{`a\b`, `a\\b`},
		{"tab\there", `tab\there`},
		{"line\nbreak\r", `line\nbreak\r`},
		{"nul\x00byte", `nul\0byte`},
		{"\xff\x01 key", "\xff\x01 key"},
		{`['a\'b']`, `['a\\'b']`},
	}
	for _, tt := range tests {
		if got := EscapeParam(tt.in); got != tt.want {
			t.Errorf("EscapeParam(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWithDefaults(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]string
		want map[string]string
	}{
		{"none", nil, map[string]string{"optimize_on_insert": "0", "parallel_view_processing": "1"}},
		{"added", map[string]string{"max_threads": "1"},
			map[string]string{"optimize_on_insert": "0", "parallel_view_processing": "1", "max_threads": "1"}},
		{"caller wins", map[string]string{"optimize_on_insert": "1"},
			map[string]string{"optimize_on_insert": "1", "parallel_view_processing": "1"}},
	}
	for _, c := range cases {
		if got := WithDefaults(c.in); !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
