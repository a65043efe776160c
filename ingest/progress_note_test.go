package ingest

import (
	"bytes"
	"testing"
	"time"
)

// A note (the metadata fetcher's figures) ends each progress line; an
// empty note adds nothing.
func TestProgressNote(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, halfway{}, time.Second)
	note := "metadata: 3 fetched"
	p.note = func() string { return note }
	t0 := time.Unix(100, 0)
	st := Stats{Items: 10, Elapsed: time.Second}
	p.draw(t0, st, 7)
	p.draw(t0.Add(time.Second), st, 7)
	note = ""
	p.draw(t0.Add(2*time.Second), st, 7)
	want := "progress: 10 items, 10 items/s, 0 dead letters, indexed slot 7; metadata: 3 fetched\n" +
		"progress: 10 items, 10 items/s, 0 dead letters, indexed slot 7\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}
