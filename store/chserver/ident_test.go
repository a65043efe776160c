package chserver

import "testing"

func TestQuoteIdent(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"slot", "`slot`", true},
		{"block_time", "`block_time`", true},
		{"tokens.mint", "`tokens.mint`", true},
		{"Δslot", "`Δslot`", true},
		{"$1", "`$1`", true},
		{"", "", false},
		{"a`b", "", false},
		{"`", "", false},
		{`a\`, "", false},
		{"a b", "", false},
		{"a\tb", "", false},
		{"a\nb", "", false},
		{"a\x00b", "", false},
		{"f(x)", "", false},
		{"a,b", "", false},
		{`a"b`, "", false},
		{"a'b", "", false},
		{"a;b", "", false},
		{"a\xffb", "", false},
	}
	for _, tt := range tests {
		got, err := quoteIdent(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("quoteIdent(%q) = %q, %v, want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestQuoteTable(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"blocks", "`blocks`", true},
		{"dasch.blocks", "`dasch`.`blocks`", true},
		{"db.a.b", "`db`.`a.b`", true},
		{".blocks", "", false},
		{"db.", "", false},
		{"db.bl`ocks", "", false},
		{"d`b.blocks", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := quoteTable(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("quoteTable(%q) = %q, %v, want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
