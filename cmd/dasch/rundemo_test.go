package main_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/syncbuf"
)

// TestRunDemo runs what `make run` runs (scripts/run-demo.sh) with the
// test's binary: the demo data, then a node to follow (RPC). Each prints
// a curl line whose key answers, serves the expected slot, and stops
// cleanly on SIGINT.
func TestRunDemo(t *testing.T) {
	n := demoNode(t)
	for _, c := range []struct {
		name string
		env  []string
		slot string
	}{
		// The demo's block, then the DAS corpus accounts it also indexes.
		{"demo data", nil, "312247832"},
		{"following a node", []string{"RPC=" + n.URL(), "FROM=40"}, "43"},
		// Without FROM: the node's accounts (none) listed at its newest
		// slot, 41, then its blocks followed.
		{"listing a node's accounts, then following it", []string{"RPC=" + n.URL()}, "43"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.env != nil && len(c.env) == 1 {
				n.GrowFrom(41)
			}
			cmd := exec.Command("../../scripts/run-demo.sh")
			cmd.Env = append(os.Environ(), append(c.env, "DASCH="+bin, "LISTEN=127.0.0.1:0",
				"STORE=embedded:"+filepath.Join(t.TempDir(), "data"))...)
			stdout, _ := cmd.StdoutPipe()
			stderr := &syncbuf.Buffer{}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				_ = cmd.Process.Signal(syscall.SIGINT)
				if err := cmd.Wait(); err != nil {
					t.Errorf("run-demo did not stop cleanly: %v\n%s", err, stderr.String())
				}
			}()
			var key, base string
			var curls []string
			var rest [][2]string
			sc := bufio.NewScanner(stdout)
			for sc.Scan() && base == "" {
				line := sc.Text()
				if head, body, ok := strings.Cut(line, " -d '"); ok {
					body = strings.TrimSuffix(body, "'")
					if _, path, ok := strings.Cut(head, "/v1/"); ok {
						// A REST line: its path and body.
						path, _, _ = strings.Cut(path, "?")
						rest = append(rest, [2]string{"/v1/" + path, body})
					} else {
						curls = append(curls, body)
					}
				}
				if k, ok := strings.CutPrefix(line, "API key for project demo: "); ok {
					key = k
				}
				if b, ok := strings.CutPrefix(line, "listening on "); ok {
					base = b
				}
			}
			go func() {
				for sc.Scan() {
				}
			}()
			if key == "" || base == "" {
				t.Fatalf("no key or listening line: %q %q\n%s", key, base, stderr.String())
			}
			deadline := time.Now().Add(60 * time.Second)
			for {
				_, m, raw := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
				if fmt.Sprint(m["result"]) == c.slot {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("getIndexerSlot: %s, want %s\n%s", raw, c.slot, stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			if c.env != nil {
				return
			}
			// Every curl line printed answers a result: one per surface.
			if len(curls) != 7 || len(rest) != 2 {
				t.Errorf("%d JSON-RPC and %d REST curl lines, want 7 and 2: %q %q", len(curls), len(rest), curls, rest)
			}
			for _, r := range rest {
				status, raw := post(t, base+r[0]+"?api-key="+key, r[1])
				if status != 200 || strings.Contains(raw, `"parserStatus":"ERROR"`) || !strings.Contains(raw, `"signature"`) {
					t.Errorf("%s %s: HTTP %d %.300s", r[0], r[1], status, raw)
				}
			}
			for _, body := range curls {
				_, m, raw := rpc(t, base+"/?api-key="+key, body)
				if m["result"] == nil {
					t.Errorf("%s: %s", body, raw)
				}
				// The demo's assets show their off-chain content, read
				// from the documents shipped beside the demo data.
				if strings.Contains(body, `"getAssetBatch"`) {
					items, _ := m["result"].([]any)
					for _, it := range items {
						a, _ := it.(map[string]any)
						content, _ := a["content"].(map[string]any)
						meta, _ := content["metadata"].(map[string]any)
						links, _ := content["links"].(map[string]any)
						files, _ := content["files"].([]any)
						if meta["description"] == nil || links["image"] == nil || len(files) == 0 {
							t.Errorf("asset %v has no off-chain content: %v", a["id"], content)
						}
						if a["interface"] != "FungibleToken" && meta["attributes"] == nil {
							t.Errorf("asset %v has no attributes: %v", a["id"], meta)
						}
					}
					if len(items) != 5 {
						t.Errorf("getAssetBatch: %d assets, want 5", len(items))
					}
				}
			}
		})
	}
	// FROM alone is refused.
	cmd := exec.Command("../../scripts/run-demo.sh")
	cmd.Env = append(os.Environ(), "DASCH="+bin, "FROM=40", "STORE=embedded:"+filepath.Join(t.TempDir(), "data"))
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "FROM applies with RPC only") {
		t.Fatalf("FROM without RPC: %v %s", err, out)
	}
}

// post sends body to url and returns the status and the answer.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
