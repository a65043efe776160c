// Package clickhouse_test checks `dasch serve --sql-listen` against
// ClickHouse's official Node.js client, @clickhouse/client (the version
// pinned in package.json), over the HTTP interface.
//
// The test needs node and npm on PATH, and skips without them. It installs
// the pinned package with `npm ci`, builds bin/dasch, indexes fixtures of
// the DAS corpus into an embedded store, serves it with --sql-listen,
// makes API calls so that request_log has rows, and runs the example
// queries of docs/schema.md that apply to that data as the analyst, and
// a write and a read of api_keys, which must be refused.
package clickhouse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
	"github.com/dasch-labs/dasch/internal/chtest"
)

// The cases whose fixtures the store holds: a compressed NFT's three
// transactions and a token account of the token program.
var cases = []string{"mint_transfer_mpl_programs", "get_token_accounts_by_mint"}

const (
	password  = "e2e analyst"
	bubblegum = "BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY"
)

type query struct {
	Name  string `json:"name"`
	Query string `json:"query"`
}

// The examples of docs/schema.md that apply to the store, as written
// there (the credits example names a project the data does not hold).
var examples = []query{
	{"per slot", "SELECT slot, count() FROM transactions FINAL GROUP BY slot ORDER BY slot"},
	{"programs", "SELECT base58Encode(p) AS program, count() AS n\nFROM transactions FINAL ARRAY JOIN program_ids AS p GROUP BY p ORDER BY n DESC LIMIT 10"},
	{"usage", "SELECT project_id, method, toDate(at) AS day, count() AS requests, countIf(billed) AS billed,\n       sum(credits) AS credits\nFROM request_log GROUP BY project_id, method, day ORDER BY day, project_id, credits DESC"},
	{"p99", "SELECT method, count() AS n, quantile(0.99)(latency_us) / 1000 AS p99_ms\nFROM request_log WHERE at > now() - INTERVAL 1 DAY AND method != '' GROUP BY method ORDER BY p99_ms DESC"},
	{"error rates", "SELECT method, count() AS n,\n       countIf(http_status >= 500) / n AS server_errors, countIf(http_status BETWEEN 400 AND 499) / n AS client_errors,\n       countIf(http_status = 429) / n AS rate_limited, countIf(rpc_code != 0) / n AS jsonrpc_errors\nFROM request_log WHERE at > now() - INTERVAL 1 DAY GROUP BY method ORDER BY n DESC"},
	{"lamports", "SELECT base58Encode(pubkey), argMax(lamports, version)\nFROM accounts_by_owner WHERE owner = base58Decode('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')\nGROUP BY pubkey"},
}

var refused = []query{
	{"insert", "INSERT INTO blocks (slot) VALUES (1)"},
	{"drop", "DROP TABLE transactions"},
	{"keys", "SELECT * FROM api_keys"},
}

func TestClickHouseClient(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs @clickhouse/client under Node.js", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var files []string
	for _, name := range cases {
		for _, f := range e2ekit.LoadDASCase(t, name).Files() {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)
	storeURL, key := e2ekit.Index(t, ctx, bin, t.TempDir(), files)
	ports, err := chtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DASCH_SQL_PASSWORD", password)
	httpURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	base := e2ekit.Serve(t, ctx, bin, storeURL, "--sql-listen", fmt.Sprintf("127.0.0.1:%d", ports[0]),
		"--sql-http-listen", fmt.Sprintf("127.0.0.1:%d", ports[1]))

	// API calls, so that request_log has rows; it is written within a
	// second of each.
	for range 3 {
		resp, err := http.Post(base+"/?api-key="+key, "application/json",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getAssetsByOwner","params":{"ownerAddress":"11111111111111111111111111111111"}}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for deadline := time.Now().Add(30 * time.Second); sqlHTTP(t, httpURL, "SELECT count() FROM request_log") == "0"; {
		if time.Now().After(deadline) {
			t.Fatal("no request_log rows 30s after the API calls")
		}
		time.Sleep(200 * time.Millisecond)
	}

	arg, err := json.Marshal(map[string]any{"url": httpURL, "username": "analyst", "password": password, "queries": examples, "refused": refused})
	if err != nil {
		t.Fatal(err)
	}
	summary := e2ekit.Client(t, ctx, "@clickhouse/client", string(arg))
	var rows = map[string][]map[string]any{}
	for _, q := range examples {
		var r []map[string]any
		if e2ekit.Decode(t, summary, q.Name, &r) {
			rows[q.Name] = r
		}
	}
	// Three transactions, each in a slot of its own.
	if r := rows["per slot"]; len(r) != 3 {
		t.Errorf("per slot: %s, want the three transactions' slots", e2ekit.Show(r))
	}
	if r := rows["programs"]; !slices.ContainsFunc(r, func(m map[string]any) bool { return m["program"] == bubblegum }) {
		t.Errorf("programs: %s, want Bubblegum among them", e2ekit.Show(r))
	}
	for _, name := range []string{"usage", "p99", "error rates"} {
		if r := rows[name]; !slices.ContainsFunc(r, func(m map[string]any) bool { return m["method"] == "getAssetsByOwner" }) {
			t.Errorf("%s: %s, want a getAssetsByOwner row", name, e2ekit.Show(r))
		}
	}
	if r := rows["lamports"]; len(r) != 1 {
		t.Errorf("lamports: %s, want the one token account", e2ekit.Show(r))
	}
	for _, q := range refused {
		var f struct {
			Threw   bool   `json:"threw"`
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		if e2ekit.Decode(t, summary, q.Name, &f) && (!f.Threw || f.Type != "ACCESS_DENIED") {
			t.Errorf("%s: threw %v %s %q, want ACCESS_DENIED", q.Query, f.Threw, f.Type, f.Message)
		}
	}
}

// sqlHTTP runs one query as the analyst over HTTP and returns its answer,
// trimmed.
func sqlHTTP(t *testing.T, base, q string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(q))
	req.SetBasicAuth("analyst", password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", q, resp.StatusCode, b)
	}
	return strings.TrimSpace(string(b))
}
