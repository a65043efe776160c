package ingest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/internal/syncbuf"
)

func TestSummary(t *testing.T) {
	cases := []struct {
		st   Stats
		want string
	}{
		{Stats{Items: 1234, Txs: 1200, Accounts: 30, Blocks: 4, Elapsed: 1200 * time.Millisecond, Slot: 270893658},
			"ingested 1234 items (1200 tx, 30 accounts, 4 blocks) in 1.2s: 1028 items/s, 0 dead letters, indexed slot 270893658"},
		{Stats{Items: 3, Txs: 1, DeadLetters: 2, Elapsed: 35400 * time.Microsecond},
			"ingested 3 items (1 tx, 0 accounts, 0 blocks) in 35ms: 85 items/s, 2 dead letters, indexed slot 0"},
		{Stats{}, "ingested 0 items (0 tx, 0 accounts, 0 blocks) in 0s: 0 items/s, 0 dead letters, indexed slot 0"},
	}
	for _, c := range cases {
		if got := c.st.Summary(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// halfway is a source that reports being half done.
type halfway struct{ source.Source }

func (halfway) Progress() (int64, int64) { return 50, 100 }

func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	if newProgress(&out, false, halfway{}, 0) != nil || newProgress(nil, true, halfway{}, time.Second) != nil {
		t.Fatal("progress drawn without a terminal")
	}
	p := newProgress(&out, true, halfway{}, time.Second) // a terminal draws the bar whatever the interval
	t0 := time.Unix(100, 0)
	st := Stats{Items: 500, Elapsed: time.Second, DeadLetters: 1}
	p.draw(t0, st, 7)
	p.draw(t0.Add(50*time.Millisecond), st, 8) // too soon: at most 10 redraws a second
	want := "\r[############------------]  50%  500 items  500 items/s  1 dead letters  slot 7"
	if out.String() != want {
		t.Fatalf("got  %q\nwant %q", out.String(), want)
	}
	out.Reset()
	p.src = nil
	p.draw(t0.Add(100*time.Millisecond), Stats{Items: 2, Elapsed: time.Second}, 9)
	line := "2 items  2 items/s  0 dead letters  slot 9"
	if got := out.String(); got != "\r"+line+strings.Repeat(" ", len(want)-1-len(line)) {
		t.Fatalf("shorter line must blank the rest: %q", got)
	}
	out.Reset()
	p.clear()
	if got := out.String(); got != "\r"+strings.Repeat(" ", len(line))+"\r" {
		t.Fatalf("clear: %q", got)
	}
}

// Off a terminal, asked for lines: one per interval, none before the
// first interval is over, and the summary ends the run as before.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, halfway{}, 10*time.Second)
	t0 := time.Unix(100, 0)
	st := Stats{Items: 500, Elapsed: time.Second, DeadLetters: 1}
	for _, d := range []time.Duration{0, 5 * time.Second, 10 * time.Second, 15 * time.Second, 21 * time.Second} {
		p.draw(t0.Add(d), st, 7)
	}
	line := "progress: 500 items, 500 items/s, 1 dead letters, indexed slot 7\n"
	if out.String() != line+line {
		t.Fatalf("got %q, want two lines (at 10 s and 21 s)", out.String())
	}
	out.Reset()
	p.clear()
	if out.Len() != 0 {
		t.Fatalf("clear wrote %q off a terminal", out.String())
	}
	// A following run prints lines while it waits for more.
	s := storetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncbuf.Buffer{}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Store: s, Source: &liveSource{items: photonItems(t)}, BatchAge: 20 * time.Millisecond,
			Progress: logs, ProgressEvery: 50 * time.Millisecond})
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), "progress: 4 items, ") || !strings.Contains(logs.String(), "indexed slot 42\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no progress line with slot 42: %q", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
}

func TestRunReportsSummary(t *testing.T) {
	s := storetest.Open(t)
	dir := inputDir(t, []string{photonTxs}, nil)
	for _, tty := range []bool{false, true} {
		var out bytes.Buffer
		st := ingest(t, s, dir, Config{Progress: &out, IsTTY: tty})
		got := out.String()
		if !strings.HasSuffix(got, st.Summary()+"\n") {
			t.Errorf("tty=%v: output %q does not end with the summary", tty, got)
		}
		if !tty && got != st.Summary()+"\n" {
			t.Errorf("no terminal: output %q, want only the summary", got)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	s := storetest.Open(t)
	src, err := ParseSource("files:" + fixtures)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no store", Config{Source: src}, "no store"},
		{"no source", Config{Store: s}, "no source"},
	}
	for _, c := range cases {
		if _, err := Run(context.Background(), c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := ParseSource("kafka:topic"); err == nil || !strings.Contains(err.Error(), "supported: files:DIR") {
		t.Errorf("unknown scheme: %v", err)
	}
}
