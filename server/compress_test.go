package server

import "testing"

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"GZIP", true},
		{"x-gzip", true},
		{"gzip, deflate, br", true},
		{"br, gzip;q=0.5", true},
		{"deflate, br", false},
		{"identity", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"gzip;q=0, *", false}, // named refusal wins over the wildcard
		{"*", true},
		{"*;q=0", false},
		{"br, *;q=0.1", true},
		{"gzip;q=abc", false},
		{"gzip;level=1;q=1", true},
		{"gzipx", false},
		{" , ,gzip ,", true},
	}
	for _, tt := range tests {
		if got := acceptsGzip([]byte(tt.header)); got != tt.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
