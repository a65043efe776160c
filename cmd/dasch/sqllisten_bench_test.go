package main_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chtest"
)

// BenchmarkServeSQLListen: what --sql-listen costs the API. The same
// embedded store (the demo and the DAS corpus accounts) is served twice,
// one after the other: in-process, then through the SQL server's child
// process over loopback. Each call is one HTTP request, one at a time;
// p50 and p99 are of its b.N round trips. The asset cache is off, so
// getAsset reads the store each time.
//
//	go test ./cmd/dasch -run '^$' -bench ServeSQLListen -benchtime 2000x
func BenchmarkServeSQLListen(b *testing.B) {
	dir := b.TempDir()
	storeURL := "embedded:" + filepath.Join(dir, "data")
	for _, args := range [][]string{
		{"migrate", "--store", storeURL},
		{"ingest", "--store", storeURL, "--source", "files:../../testdata/demo"},
		{"ingest", "--store", storeURL, "--source", "files:../../testdata/das/accounts"},
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.Fatalf("dasch %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	out, err := exec.Command(bin, "keys", "create", "--store", storeURL, "--project", "bench").Output()
	if err != nil {
		b.Fatal(err)
	}
	key := lastLine(string(out))
	calls := []struct{ name, body string }{
		{"getAsset", `{"jsonrpc":"2.0","id":1,"method":"getAsset","params":{"id":"x3hJtpU4AUsGejNvxzX9TKjcyNB1eYtDdDPWdeF6opr"}}`},
		{"getCompressedAccountsByOwner", `{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"}}`},
	}
	os.Setenv("DASCH_SQL_PASSWORD", "bench")
	defer os.Unsetenv("DASCH_SQL_PASSWORD")
	for _, mode := range []string{"embedded", "sql-listen"} {
		extra := []string{"--asset-cache-mb", "0"}
		if mode == "sql-listen" {
			ports, err := chtest.FreePorts(2)
			if err != nil {
				b.Fatal(err)
			}
			extra = append(extra, "--sql-listen", fmt.Sprintf("127.0.0.1:%d", ports[0]), "--sql-http-listen", fmt.Sprintf("127.0.0.1:%d", ports[1]))
		}
		base, stop := benchServe(b, storeURL, extra...)
		url := base + "/?api-key=" + key
		for _, c := range calls {
			// Warm-up: the first reads of a server load marks and caches.
			for range 100 {
				benchCall(b, url, c.body)
			}
			b.Run(mode+"/"+c.name, func(b *testing.B) {
				lat := make([]time.Duration, 0, b.N)
				for b.Loop() {
					t0 := time.Now()
					benchCall(b, url, c.body)
					lat = append(lat, time.Since(t0))
				}
				slices.Sort(lat)
				ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
				b.ReportMetric(ms(0.5), "p50_ms")
				b.ReportMetric(ms(0.99), "p99_ms")
			})
		}
		stop()
	}
}

// benchServe starts dasch serve and returns its base URL and its stop.
func benchServe(b *testing.B, storeURL string, extra ...string) (string, func()) {
	b.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--store", storeURL, "--listen", "127.0.0.1:0"}, extra...)...)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- a
			}
		}
	}()
	var base string
	select {
	case base = <-addr:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		b.Fatalf("serve did not start: %s", stderr.String())
	}
	return base, func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			b.Errorf("serve: %v: %s", err, stderr.String())
		}
	}
}

func benchCall(b *testing.B, url, body string) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"result"`)) {
		b.Fatalf("%s: %d %s", body, resp.StatusCode, raw)
	}
}
