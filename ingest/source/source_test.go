package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		spec string
		want string // error substring; "" = ok
	}{
		{"files:" + dir, ""},
		{"rpc:http://localhost:8899", ""},
		{"rpc:https://api.example.com/?api-key=k", ""},
		{"rpc:", "want an http or https URL"},
		{"rpc:localhost:8899", "want an http or https URL"},
		{"rpc:ftp://localhost", "want an http or https URL"},
		{"rpc:http://", "want an http or https URL"},
		{"grpc:http://localhost:10000", ""},
		{"grpc:https://geyser.example.com", ""},
		{"grpc:localhost:10000", "want an http or https URL"},
		{"grpc:https://geyser.example.com/TOKEN", "no path or query"},
		{"ws:localhost", `unknown scheme "ws" (supported: files:DIR, rpc:URL, grpc:URL)`},
		{dir, "want SCHEME:ARGUMENT (supported: files:DIR, rpc:URL, grpc:URL)"},
		{"files:", "no directory"},
		{"files:" + filepath.Join(dir, "missing"), "no such file"},
		{"files:" + file, "not a directory"},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			s, err := Parse(c.spec)
			if c.want == "" {
				if err != nil || s.Spec() != c.spec {
					t.Fatalf("got %v, %v", s, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// writeTree creates files under a new temp dir; values are contents or
// testdata paths prefixed with "@".
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b := []byte(content)
		if strings.HasPrefix(content, "@") {
			var err error
			if b, err = os.ReadFile(filepath.Join("..", "..", "chain", "testdata", content[1:])); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFilesOrderAndKinds(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"b/tx-late.json":   `{"slot":20,"transaction":["",""]}`,
		"a/tx-late.json":   `{"slot":20,"transaction":["",""]}`,
		"acct.json":        `{"pubkey":"p","owner":"o","data":"","slot":"3"}`,
		"blocks/7.json":    `{"blockhash":"5VAKe1YDgfuJ2wsFEVtDAu9unRyvfDkB21Zn6Bfv9KW4","previousBlockhash":"9KfRY5iEqUTQfqoyUyDNefvCNANTohJvAXdLQPbfVeb4","parentSlot":6,"blockTime":null,"transactions":[{"meta":null},{"meta":{}}]}`,
		"blocks/name.json": `{"blockhash":"x","transactions":[]}`,
		"bad.json":         `{"slot":`,
		"other.json":       `{"hello":"world"}`,
		"noslot-acct.json": `{"pubkey":"p","owner":"o","data":""}`,
		"notes.txt":        `ignored`,
	})
	src, err := NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = src.Read(context.Background(), func(it Item) error {
		if it.Seq != uint64(len(got)) {
			t.Errorf("seq %d at position %d", it.Seq, len(got))
		}
		rel, _ := filepath.Rel(dir, it.Key)
		line := fmt.Sprintf("%d %s %s", it.Slot, it.Kind, filepath.ToSlash(rel))
		if it.Kind == KindBad {
			line += " " + it.Fail
		}
		if it.Kind == KindTx && strings.Contains(it.Key, "#") {
			line += fmt.Sprintf(" idx=%d raw=%s", it.TxIndex, it.Raw)
		}
		got = append(got, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 bad bad.json file",
		"0 bad blocks/name.json block",
		"0 bad noslot-acct.json account",
		"0 bad other.json file",
		"3 account acct.json",
		"7 block blocks/7.json",
		`7 transaction blocks/7.json#0 idx=0 raw={"slot":7,"blockTime":null,"meta":null}`,
		`7 transaction blocks/7.json#1 idx=1 raw={"slot":7,"blockTime":null,"meta":{}}`,
		"20 transaction a/tx-late.json",
		"20 transaction b/tx-late.json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if done, total := src.Progress(); done != total || total == 0 {
		t.Errorf("progress %d/%d", done, total)
	}
}

func TestFilesBadBlockBody(t *testing.T) {
	dir := writeTree(t, map[string]string{"9.json": `{"blockhash":"not base58 0","previousBlockhash":"","parentSlot":8,"transactions":[]}`})
	src, _ := NewFiles(dir)
	var items []Item
	if err := src.Read(context.Background(), func(it Item) error { items = append(items, it); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Kind != KindBad || items[0].Fail != "block" || items[0].Slot != 9 || len(items[0].Raw) == 0 {
		t.Fatalf("items %+v", items)
	}
}

func TestFilesStops(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"1.json": "@" + "photon/transactions/e2e_mint_and_transfer_transactions/64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4.json",
		"2.json": "@" + "photon/transactions/e2e_mint_and_transfer_transactions/5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV.json",
	})
	src, _ := NewFiles(dir)
	stop := errors.New("stop")
	n := 0
	err := src.Read(context.Background(), func(it Item) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("emit error: %v after %d items", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.Read(ctx, func(Item) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
