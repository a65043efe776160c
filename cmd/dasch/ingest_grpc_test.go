package main_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
)

// demoStream serves the demo's mint-and-transfer transactions (slots 40
// to 43) as a Geyser stream.
func demoStream(t *testing.T, script geysertest.Script) *geysertest.Server {
	t.Helper()
	files, err := filepath.Glob("../../testdata/demo/e2e_mint_and_transfer_transactions/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("demo transactions: %v", err)
	}
	script.Slots, err = geysertest.Slots(files)
	if err != nil {
		t.Fatal(err)
	}
	return geysertest.Start(t, script)
}

// A Geyser stream gives the balances the same transactions give as
// files, through disconnects and repeats; the token goes as x-token; a
// run without --from goes on after the indexed slot.
func TestIngestGRPC(t *testing.T) {
	srv := demoStream(t, geysertest.Script{Token: "t0k", Disconnects: []int{3, 5}, Duplicate: 2, PingEvery: 3})
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	out := mustDasch(t, "ingest", "--store", storeURL, "--source", "grpc:"+srv.URL, "--x-token", "t0k", "--from", "40", "--to", "41")
	if !strings.Contains(lastLine(out), "slot 41") {
		t.Fatalf("summary line %q does not give the indexed slot", lastLine(out))
	}
	t.Setenv("DASCH_X_TOKEN", "t0k")
	mustDasch(t, "ingest", "--store", storeURL, "--source", "grpc:"+srv.URL, "--to", "43")
	got := lastLine(stateOf(t, storeURL))
	want := "[CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX:895,EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu:105]\t43\t[40,41,42,43]"
	if got != want {
		t.Fatalf("grpc ingest:\n got %s\nwant %s", got, want)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.GetFromSlot() < 42 {
		t.Errorf("the second run subscribed from slot %d, want after the indexed 41", last.GetFromSlot())
	}
	if out := mustDasch(t, "ingest", "--store", storeURL, "--source", "grpc:"+srv.URL, "--to", "43"); !strings.Contains(out, "slots up to 43 are indexed already: nothing to read") {
		t.Fatalf("ingest of an indexed range: %q", out)
	}
}

// Over TLS with a self-signed certificate, trusted through --grpc-ca.
func TestIngestGRPCOverTLS(t *testing.T) {
	cfg, pem := geysertest.SelfSigned(t)
	srv := demoStream(t, geysertest.Script{TLS: cfg})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem, 0o600); err != nil {
		t.Fatal(err)
	}
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	mustDasch(t, "ingest", "--store", storeURL, "--source", "grpc:"+srv.URL, "--grpc-ca", ca, "--from", "40", "--to", "43")
	want := "[CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX:895,EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu:105]\t43\t[40,41,42,43]"
	if got := lastLine(stateOf(t, storeURL)); got != want {
		t.Fatalf("grpc ingest over TLS:\n got %s\nwant %s", got, want)
	}
}

func TestIngestGRPCUsage(t *testing.T) {
	srv := demoStream(t, geysertest.Script{Token: "right"})
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--source", "files:../../testdata/demo", "--x-token", "x"}, "--x-token and --grpc-ca apply to grpc:URL sources only"},
		{[]string{"--source", "grpc:" + srv.URL, "--grpc-ca", "/nonexistent.pem", "--to", "43"}, "--grpc-ca: open /nonexistent.pem"},
		{[]string{"--source", "grpc:" + srv.URL, "--grpc-ca", "../../README.md", "--to", "43"}, "no PEM certificate in it"},
		{[]string{"--source", "grpc:" + srv.URL, "--fetchers", "2"}, "--fetchers and --bootstrap apply to rpc:URL sources only"},
		{[]string{"--source", "grpc:" + srv.URL, "--commitment", "rooted"}, `commitment "rooted": want processed, confirmed or finalized`},
		{[]string{"--source", "grpc:" + srv.URL, "--from", "43", "--to", "40"}, "--to 40 is before --from 43"},
		{[]string{"--source", "grpc:" + srv.URL + "/path"}, "a gRPC URL has no path or query"},
		{[]string{"--source", "grpc:" + srv.URL, "--x-token", "wrong", "--to", "43"}, "refused: invalid x-token (check --x-token)"},
	} {
		_, errOut, err := dasch(t, append([]string{"ingest", "--store", storeURL}, c.args...)...)
		if err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("ingest %v: %v %q, want %q", c.args, err, errOut, c.want)
		}
	}
}

// dasch serve --ingest grpc:URL follows the stream while it answers;
// health compares with the server's slot.
func TestServeIngestsGRPC(t *testing.T) {
	srv := demoStream(t, geysertest.Script{})
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "follow"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	adminAddr := l.Addr().String()
	l.Close()
	base, _ := serve(t, storeURL, "--ingest", "grpc:"+srv.URL, "--from", "40", "--batch-age", "10ms", "--part-age", "10ms",
		"--admin-listen", adminAddr)
	url := base + "/?api-key=" + key
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, m, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getCompressedTokenBalancesByOwnerV2","params":{"owner":"EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"}}`)
		if res, ok := m["result"].(map[string]any); ok && fmt.Sprint(res["context"].(map[string]any)["slot"]) == "43" {
			if !strings.Contains(raw, `"balance":105`) {
				t.Fatalf("at slot 43: %s", raw)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the served state never reached slot 43: %s", raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, _, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getIndexerHealth"}`); !strings.Contains(raw, `"result":"ok"`) {
		t.Fatalf("getIndexerHealth: %s", raw)
	}
	// The ingest reports its rows to /metrics as it commits them.
	resp, err := http.Get("http://" + adminAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !regexp.MustCompile(`(?m)^dasch_ingest_rows_total\{table="transactions"\} [1-9]`).Match(body) {
		t.Fatalf("/metrics lacks the ingested transactions:\n%s", body)
	}
}
