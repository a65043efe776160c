package source

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

func TestFileListKeepsOrder(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"late.json":  `{"slot":20,"transaction":["",""]}`,
		"early.json": `{"slot":3,"transaction":["",""]}`,
		"7.json":     `{"blockhash":"5VAKe1YDgfuJ2wsFEVtDAu9unRyvfDkB21Zn6Bfv9KW4","previousBlockhash":"9KfRY5iEqUTQfqoyUyDNefvCNANTohJvAXdLQPbfVeb4","parentSlot":6,"blockTime":null,"transactions":[{"meta":null}]}`,
		"bad.json":   `{"slot":`,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"as listed, not by slot", []string{p("late.json"), p("early.json"), p("late.json")},
			[]string{"0 20 transaction late.json", "1 3 transaction early.json", "2 20 transaction late.json"}},
		{"blocks and bad files", []string{p("7.json"), p("bad.json"), p("missing.json")},
			[]string{"0 7 block 7.json", "1 7 transaction 7.json#0", "2 0 bad bad.json", "3 0 bad missing.json"}},
		{"empty", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := NewFileList(c.paths)
			if want := fmt.Sprintf("list:%d files", len(c.paths)); src.Spec() != want {
				t.Errorf("spec %q, want %q", src.Spec(), want)
			}
			var got []string
			err := src.Read(context.Background(), func(it Item) error {
				rel, _ := filepath.Rel(dir, it.Key)
				got = append(got, fmt.Sprintf("%d %d %s %s", it.Seq, it.Slot, it.Kind, filepath.ToSlash(rel)))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("items %q, want %q", got, c.want)
			}
		})
	}
}

func TestFileListStops(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.json": `{"slot":1,"transaction":["",""]}`})
	src := NewFileList([]string{filepath.Join(dir, "a.json"), filepath.Join(dir, "a.json")})
	stop := errors.New("stop")
	n := 0
	if err := src.Read(context.Background(), func(Item) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("emit error: %v after %d items", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.Read(ctx, func(Item) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
