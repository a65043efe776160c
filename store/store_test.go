package store

import "testing"

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
