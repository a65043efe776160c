package main

import "testing"

func TestPartBytesUnderBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		partMB int
		set    bool
		engine int64
		want   int
	}{
		{"no budget", 1024, false, 0, 1024 << 20},
		{"an eighth of the engine", 1024, false, 1 << 30, 128 << 20},
		{"at least 16 MiB", 1024, false, 64 << 20, 16 << 20},
		{"smaller flag kept", 8, false, 1 << 30, 8 << 20},
		{"given flag kept", 1024, true, 64 << 20, 1024 << 20},
	} {
		mb := tc.partMB
		p := &ingestPlan{f: &ingestFlags{partMB: &mb}, partMBSet: tc.set}
		if got := p.partBytes(tc.engine); got != tc.want {
			t.Errorf("%s: %d MiB, want %d MiB", tc.name, got>>20, tc.want>>20)
		}
	}
}
