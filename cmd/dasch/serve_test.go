package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
)

// flaky is an index whose first failures loads fail.
type flaky struct {
	name     string
	failures int
	tries    int
}

func (f *flaky) load() indexLoad {
	return indexLoad{f.name, func(context.Context, time.Duration, func(error)) (time.Duration, error) {
		f.tries++
		if f.tries <= f.failures {
			return 0, errors.New("store unreachable")
		}
		return time.Millisecond, nil
	}, func() string { return "stats" }}
}

func noSyncErr(string) func(error) { return nil }

func TestLoadIndexesRetries(t *testing.T) {
	cases := []struct {
		name      string
		failures  []int // per index, in load order
		wantTries []int
		wantLines []string
	}{
		{"all load", []int{0, 0, 0}, []int{1, 1, 1}, []string{"a", "b", "c"}},
		{"a failure waits for the others", []int{2, 0, 1}, []int{3, 1, 2}, []string{"b", "c", "a"}},
		{"every one fails once", []int{1, 1, 1}, []int{2, 2, 2}, []string{"a", "b", "c"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var idx []*flaky
			var loads []indexLoad
			for i, n := range tc.failures {
				f := &flaky{name: string(rune('a' + i)), failures: n}
				idx = append(idx, f)
				loads = append(loads, f.load())
			}
			var out, logs bytes.Buffer
			loadIndexes(context.Background(), loads, time.Millisecond, slog.New(slog.NewTextHandler(&logs, nil)), &out, noSyncErr)
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				got = append(got, strings.SplitN(line, ":", 2)[0])
			}
			if strings.Join(got, " ") != strings.Join(tc.wantLines, " ") {
				t.Errorf("load lines %q, want %v", out.String(), tc.wantLines)
			}
			for i, f := range idx {
				if f.tries != tc.wantTries[i] {
					t.Errorf("%s tried %d times, want %d", f.name, f.tries, tc.wantTries[i])
				}
			}
			if n := strings.Count(logs.String(), "did not load"); n != sumFailures(tc.failures) {
				t.Errorf("%d failures logged, want %d", n, sumFailures(tc.failures))
			}
		})
	}
}

func sumFailures(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestLoadIndexesStopsWithContext: an index that never loads does not keep
// the loader past shutdown.
func TestLoadIndexesStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &flaky{name: "never", failures: 1 << 30}
	done := make(chan struct{})
	go func() {
		defer close(done)
		loadIndexes(ctx, []indexLoad{f.load()}, time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard, noSyncErr)
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("loader still waiting to retry after the context ended")
	}
	if f.tries != 1 {
		t.Fatalf("tried %d times within an hour's wait, want 1", f.tries)
	}
}

func TestCORSFlag(t *testing.T) {
	tests := []struct {
		v       string
		origins []string
		off     bool
	}{
		{"*", nil, false},
		{"https://a.example, *", nil, false},
		{"https://a.example", []string{"https://a.example"}, false},
		{" https://a.example ,https://b.example,", []string{"https://a.example", "https://b.example"}, false},
		{"", nil, true},
		{" , ", nil, true},
	}
	for _, tt := range tests {
		origins, off := corsFlag(tt.v)
		if !slices.Equal(origins, tt.origins) || off != tt.off {
			t.Errorf("corsFlag(%q) = %q, %v; want %q, %v", tt.v, origins, off, tt.origins, tt.off)
		}
	}
}

func TestUpstreamFlag(t *testing.T) {
	for _, c := range []struct {
		flag, ingest string
		host         string // "" for none
		bad          bool
	}{
		{"", "", "", false},
		{"", "rpc:http://node.example:8899", "node.example:8899", false},
		{"", "grpc:https://stream.example", "", false},
		{"", "files:/tmp/x", "", false},
		{"https://other.example/?api-key=k", "rpc:http://node.example", "other.example", false},
		{"off", "rpc:http://node.example", "", false},
		{"node.example", "", "", true},
	} {
		f, err := upstreamFlag(c.flag, c.ingest, time.Second)
		switch {
		case c.bad:
			if err == nil {
				t.Errorf("--rpc-upstream %q accepted", c.flag)
			}
		case err != nil:
			t.Errorf("--rpc-upstream %q --ingest %q: %v", c.flag, c.ingest, err)
		case c.host == "" && f != nil:
			t.Errorf("--rpc-upstream %q --ingest %q: forwards to %s, want none", c.flag, c.ingest, f.Host())
		case c.host != "" && (f == nil || f.Host() != c.host || f.Timeout() != time.Second):
			t.Errorf("--rpc-upstream %q --ingest %q: %v, want %s", c.flag, c.ingest, f, c.host)
		}
	}
}

func TestBudgetFlag(t *testing.T) {
	for _, c := range []struct {
		mb   int64
		want int64 // 0: refused
	}{
		{1, 1 << 20},
		{1024, 1 << 30},
		{0, 0},
		{-5, 0},
		{1 << 50, 0},
	} {
		got, err := budgetFlag("hot-index-mb", c.mb)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("--hot-index-mb %d accepted as %d bytes", c.mb, got)
		case c.want != 0 && (err != nil || got != c.want):
			t.Errorf("--hot-index-mb %d: %d, %v; want %d", c.mb, got, err, c.want)
		}
	}
}
