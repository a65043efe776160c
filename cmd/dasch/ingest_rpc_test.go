package main_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/rpcnode"
)

// demoNode serves the demo's mint-and-transfer transactions as blocks of
// slots 40 to 43 (each slot one transaction) on a loopback RPC node.
func demoNode(t *testing.T) *rpcnode.Node {
	t.Helper()
	blocks, err := rpcnode.BlocksFromTransactions("../../testdata/demo/e2e_mint_and_transfer_transactions")
	if err != nil {
		t.Fatal(err)
	}
	n := rpcnode.New(blocks)
	t.Cleanup(n.Close)
	return n
}

// stateOf reads what the ingest derived: the balances, the indexed slot
// and the blocks stored.
func stateOf(t *testing.T, storeURL string) string {
	t.Helper()
	return mustDasch(t, "sql", "--store", storeURL, "--format", "tsv", `SELECT
		(SELECT groupArray(concat(base58Encode(owner), ':', toString(balance))) FROM (SELECT owner, balance FROM token_balances FINAL ORDER BY owner)),
		(SELECT max(slot) FROM indexer_checkpoints),
		(SELECT groupArray(slot) FROM (SELECT slot FROM blocks FINAL ORDER BY slot))`)
}

// An RPC node's blocks give the answers the same transactions give as
// files, through failures the node recovers from; a run without --from
// goes on after the indexed slot.
func TestIngestRPC(t *testing.T) {
	n := demoNode(t)
	n.Fail(41, "429", "-32004")
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	out := mustDasch(t, "ingest", "--store", storeURL, "--source", "rpc:"+n.URL(), "--from", "38", "--to", "41", "--fetchers", "2")
	if !strings.Contains(lastLine(out), "slot 41") {
		t.Fatalf("summary line %q does not give the indexed slot", lastLine(out))
	}
	got := stateOf(t, storeURL)
	if !strings.Contains(got, "\t41\t[40,41]") {
		t.Fatalf("after slots 38..41: %s", got)
	}
	// Resume: from the slot after the indexed one (42) to 43.
	mustDasch(t, "ingest", "--store", storeURL, "--source", "rpc:"+n.URL(), "--to", "43")
	got = stateOf(t, storeURL)

	files := "embedded:" + filepath.Join(t.TempDir(), "files")
	mustDasch(t, "ingest", "--store", files, "--source", "files:../../testdata/demo/e2e_mint_and_transfer_transactions")
	want := stateOf(t, files)
	wantBalances := strings.Split(lastLine(want), "\t")[0]
	if !strings.Contains(want, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu:105") || !strings.Contains(want, "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX:895") {
		t.Fatalf("files ingest: %s", want)
	}
	if lastLine(got) != wantBalances+"\t43\t[40,41,42,43]" {
		t.Fatalf("rpc ingest:\n%s\nwant balances, slot 43 and four blocks:\n%s", got, want)
	}
	if asked := n.Asked(); !slices.Equal(slices.Sorted(slices.Values(asked)), []uint64{38, 39, 40, 41, 41, 41, 42, 43}) {
		t.Fatalf("getBlock asked for %v: want 38..41 once each, 41 twice more, then 42 and 43", asked)
	}
}

// Without --to the ingest follows the node until a signal stops it, and
// exits cleanly with what it committed kept.
func TestIngestRPCFollows(t *testing.T) {
	n := demoNode(t)
	n.GrowFrom(40)
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "ingest", "--store", storeURL, "--source", "rpc:"+n.URL(), "--from", "40", "--batch-age", "10ms", "--part-age", "10ms", "--progress-every", "50ms")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(n.Asked()) < 4 || n.Calls("getSlot") < 6 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the ingest asked for %v in 60 s", n.Asked())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(time.Second) // commits of the batches' age
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ingest stopped by SIGINT: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "following rpc:"+n.URL()+" from slot 40 (confirmed)") ||
		!strings.Contains(stdout.String(), "\nprogress: ") {
		t.Fatalf("stdout: %q: want the following line and progress lines", stdout.String())
	}
	// What was committed when the signal came stays, however much that
	// was on a loaded machine (that following indexes each block as it
	// comes: TestServeIngestsRPC, TestSealCompletesLiveSlot); the next
	// run reads from the slot after the indexed one.
	got := lastLine(stateOf(t, storeURL))
	if f := strings.Split(got, "\t"); len(f) != 3 || !slices.Contains([]string{"0", "40", "41", "42", "43"}, f[1]) {
		t.Fatalf("after following: %s", got)
	}
	mustDasch(t, "ingest", "--store", storeURL, "--source", "rpc:"+n.URL(), "--to", "43")
	got = lastLine(stateOf(t, storeURL))
	// Asked again for what is indexed, it has nothing to do.
	if out := mustDasch(t, "ingest", "--store", storeURL, "--source", "rpc:"+n.URL(), "--to", "43"); !strings.Contains(out, "slots up to 43 are indexed already: nothing to read") {
		t.Fatalf("ingest of an indexed range: %q", out)
	}
	want := "[CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX:895,EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu:105]\t43\t[40,41,42,43]"
	if got != want {
		t.Fatalf("after resuming:\n got %s\nwant %s", got, want)
	}
}

func TestIngestRPCUsage(t *testing.T) {
	n := demoNode(t)
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--source", "files:../../testdata/demo", "--from", "1"}, "--from, --to and --commitment apply to rpc:URL and grpc:URL sources only"},
		{[]string{"--source", "files:../../testdata/demo", "--bootstrap"}, "--fetchers and --bootstrap apply to rpc:URL sources only"},
		{[]string{"--source", "rpc:" + n.URL(), "--resume"}, "--resume applies to files:DIR sources only"},
		{[]string{"--source", "rpc:" + n.URL(), "--bootstrap", "--from", "40"}, "--bootstrap starts at the node's newest slot: --from does not apply"},
		{[]string{"--source", "rpc:" + n.URL(), "--from", "x"}, `--from "x": want a slot number`},
		{[]string{"--source", "rpc:" + n.URL(), "--from", "latest", "--to", "42"}, "--to 42 is before --from 43"},
		{[]string{"--source", "rpc:" + n.URL(), "--to", "0"}, `--to 0: want a slot above 0 (without --to, the node is followed)`},
		{[]string{"--source", "rpc:" + n.URL(), "--to", "-1"}, `--to "-1": want a slot number`},
		{[]string{"--source", "rpc:" + n.URL(), "--from", "43", "--to", "40"}, "--to 40 is before --from 43"},
		{[]string{"--source", "rpc:" + n.URL(), "--from", "40", "--commitment", "processed"}, `commitment "processed": want confirmed or finalized`},
		{[]string{"--source", "rpc:" + n.URL(), "--fetchers", "0"}, "--fetchers must be between 1 and 256"},
		{[]string{"--source", "rpc:" + n.URL(), "--progress-every", "-1s"}, "--progress-every must not be negative"},
		{[]string{"--source", "rpc:127.0.0.1:8899"}, "want an http or https URL"},
	} {
		_, errOut, err := dasch(t, append([]string{"ingest", "--store", storeURL}, c.args...)...)
		if err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("dasch ingest %v: %v %q, want %q", c.args, err, errOut, c.want)
		}
	}
}

// dasch serve --ingest follows a node in the serving process (the
// embedded engine takes one process per data directory): the answers
// move as blocks arrive, and SIGINT stops both cleanly.
func TestServeIngestsRPC(t *testing.T) {
	n := demoNode(t)
	n.GrowFrom(40)
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "follow"))
	base, _ := serve(t, storeURL, "--ingest", "rpc:"+n.URL(), "--from", "40", "--batch-age", "10ms", "--part-age", "10ms")
	url := base + "/?api-key=" + key
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, m, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getCompressedTokenBalancesByOwnerV2","params":{"owner":"EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"}}`)
		if res, ok := m["result"].(map[string]any); ok {
			slot := res["context"].(map[string]any)["slot"]
			if fmt.Sprint(slot) == "43" {
				if !strings.Contains(raw, `"balance":105`) {
					t.Fatalf("at slot 43: %s", raw)
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the served state never reached slot 43: %s", raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// getIndexerSlot reads the indexed slot through a cache of 200 ms,
	// where the balances came from the hot index: it may trail a moment.
	for start := time.Now(); ; {
		_, m, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
		if fmt.Sprint(m["result"]) == "43" {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("getIndexerSlot: %s", raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Health compares the indexed slot with the node's, as Photon does:
	// level is ok; 27 slots on with no block, the index is behind. (The
	// indexed slot is cached for 200 ms, so it may lag a moment.)
	health := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			_, _, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getIndexerHealth"}`)
			if strings.Contains(raw, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("getIndexerHealth: %s, want %s", raw, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	health(`"result":"ok"`)
	n.SetTip(70)
	health(`"code":-32000,"message":"Node is behind 27 slots"`)
}

// A failed ingest is run again while the server answers, going on after
// the indexed slot; ingest flags without --ingest are refused.
func TestServeIngestRetries(t *testing.T) {
	n := demoNode(t)
	n.Fail(42, "-32602")
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "retry"))
	base, _, logs := serveLogged(t, storeURL, "--ingest", "rpc:"+n.URL(), "--from", "40", "--batch-age", "10ms", "--part-age", "10ms")
	url := base + "/?api-key=" + key
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, m, raw := rpc(t, url, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`)
		if fmt.Sprint(m["result"]) == "43" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never indexed slot 43: %s\n%s", raw, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	want := `msg="ingest failed; trying again" source=rpc:` + n.URL() + ` err="ingest: source rpc:` + n.URL() + `: getBlock 42: node error -32602`
	if !strings.Contains(logs.String(), want) {
		t.Fatalf("logs:\n%s\nwant %q", logs.String(), want)
	}
	// Where the second run starts: TestRPCStart.
	storeURL = "embedded:" + filepath.Join(t.TempDir(), "other")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "40"}, "--from applies with --ingest only"},
		{[]string{"--batch-age", "1s"}, "--batch-age applies with --ingest only"},
		{[]string{"--ingest", "rpc:" + n.URL(), "--to", "43"}, "flag provided but not defined: -to"},
		{[]string{"--ingest", "files:../../testdata/demo", "--commitment", "finalized"}, "apply to rpc:URL and grpc:URL sources only"},
	} {
		_, errOut, err := dasch(t, append([]string{"serve", "--store", storeURL, "--listen", "127.0.0.1:0"}, c.args...)...)
		if err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %v: %v %q, want %q", c.args, err, errOut, c.want)
		}
	}
}

// An ingest that keeps failing makes /health and /readiness answer 503
// with the reason, while calls are still answered from the store.
func TestServeHealthOnFailingIngest(t *testing.T) {
	n := demoNode(t)
	n.Hide("getSlot") // every run fails at once
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	key := lastLine(mustDasch(t, "keys", "create", "--store", storeURL, "--project", "failing"))
	base, _ := serve(t, storeURL, "--ingest", "rpc:"+n.URL(), "--from", "40", "--ingest-fails", "2")
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/readiness")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 503 {
			if !strings.Contains(string(body), "ingest failing: 2 runs in a row") || !strings.Contains(string(body), "getSlot") {
				t.Fatalf("readiness 503 without the reason: %s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readiness still %d after 60 s: %s", resp.StatusCode, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status, m, raw := rpc(t, base+"/?api-key="+key, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`); status != 200 || m["result"] == nil {
		t.Fatalf("calls must still be answered: HTTP %d %s", status, raw)
	}
}
