// Package stateless_test checks dasch against the official TypeScript client
// of ZK compression, @lightprotocol/stateless.js (the version pinned in
// package.json). The client validates every response against its own
// schemas, so a call that succeeds here is one a real client accepts.
//
// The test needs node and npm on PATH, and skips without them. It installs
// the pinned packages with `npm ci` from the machine's npm cache, builds
// bin/dasch, ingests the Photon corpus's e2e_mint_and_transfer_transactions
// (a mint and three compressed token transfers), serves it on loopback, and
// runs client.mjs against the server.
package stateless_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/e2e/internal/e2ekit"
)

// The corpus ledger (testdata/photon/README.md, section 6): one mint, two
// holders, and no delegated account.
const (
	mint    = "2U35cKS3Cj2xs5EBdByXYU7LaKAitqjSZc1Jnvu4iPf4"
	bob     = "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"
	charles = "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX"
	smt1    = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"

	fixtures = "../../testdata/photon/transactions/e2e_mint_and_transfer_transactions"
)

type balance struct {
	Mint    string `json:"mint"`
	Balance string `json:"balance"`
}

type holder struct {
	Owner   string `json:"owner"`
	Balance string `json:"balance"`
}

type tokenAccount struct {
	Hash      string  `json:"hash"`
	Tree      string  `json:"tree"`
	LeafIndex int     `json:"leafIndex"`
	Owner     string  `json:"owner"`
	Mint      string  `json:"mint"`
	Amount    string  `json:"amount"`
	Delegate  *string `json:"delegate"`
	State     int     `json:"state"`
}

type page[T any] struct {
	Slot   *uint64 `json:"slot"`
	Items  []T     `json:"items"`
	Cursor *string `json:"cursor"`
}

func TestStatelessClient(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: this test runs the @lightprotocol/stateless.js client under Node.js", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	e2ekit.NPMCI(t, ctx)
	bin := e2ekit.Build(t, ctx)
	dir := t.TempDir()
	storeURL := "embedded:" + filepath.Join(dir, "data")
	src, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	e2ekit.Run(t, ctx, bin, "migrate", "--store", storeURL)
	if out := e2ekit.Run(t, ctx, bin, "ingest", "--store", storeURL, "--source", "files:"+src); !strings.Contains(out, "indexed slot 43") {
		t.Fatalf("ingest: %s", out)
	}
	key := e2ekit.LastLine(e2ekit.Run(t, ctx, bin, "keys", "create", "--store", storeURL, "--project", "stateless"))
	// Every answer goes gzipped to a client that asks (Node's fetch does):
	// the client reads compressed answers as it would from a provider.
	prv := newProverStandIn(t)
	url := e2ekit.Serve(t, ctx, bin, storeURL, "--compress-min-bytes", "1", "--prover", prv.url) + "/?api-key=" + key
	// The server does gzip for the Accept-Encoding Node's fetch sends, so
	// the client's answers below were gzipped.
	if enc := answerEncoding(t, url, "gzip, deflate"); enc != "gzip" {
		t.Fatalf("answer to Node's Accept-Encoding has Content-Encoding %q, want gzip", enc)
	}

	summary := client(t, ctx, url, mint, bob, charles)
	checkErrors(t, summary)
	prv.check(t, summary)

	var version string
	e2ekit.Decode(t, summary, "version", &version)
	if version != "V2" {
		t.Errorf("client flag version = %q, want the published default V2", version)
	}
	var slot uint64
	if e2ekit.Decode(t, summary, "getIndexerSlot", &slot) && slot != 43 {
		t.Errorf("getIndexerSlot = %d, want 43", slot)
	}
	var health string
	if e2ekit.Decode(t, summary, "getIndexerHealth", &health) && health != "ok" {
		t.Errorf("getIndexerHealth = %q, want ok", health)
	}

	ledger := map[string]struct {
		balance string
		amounts []int64 // the owner's token accounts' amounts, ascending
	}{
		bob:     {"105", []int64{5, 100}},
		charles: {"895", []int64{200, 695}},
	}
	for owner, want := range ledger {
		wantBalances := []balance{{mint, want.balance}}

		var v2 page[balance]
		if e2ekit.Decode(t, summary, "getCompressedTokenBalancesByOwnerV2/"+owner, &v2) {
			if !reflect.DeepEqual(v2.Items, wantBalances) || v2.Cursor != nil || v2.Slot == nil || *v2.Slot != 43 {
				t.Errorf("getCompressedTokenBalancesByOwnerV2(%s) = %s, want %v at slot 43, no cursor", owner, e2ekit.Show(v2), wantBalances)
			}
		}
		var v1 page[balance]
		if e2ekit.Decode(t, summary, "getCompressedTokenBalancesByOwner/"+owner, &v1) {
			if !reflect.DeepEqual(v1.Items, wantBalances) || v1.Cursor != nil {
				t.Errorf("getCompressedTokenBalancesByOwner(%s) = %s, want %v, no cursor", owner, e2ekit.Show(v1), wantBalances)
			}
		}

		var accountsV2, accountsV1 page[tokenAccount]
		okV2 := e2ekit.Decode(t, summary, "getCompressedTokenAccountsByOwner/"+owner, &accountsV2)
		okV1 := e2ekit.Decode(t, summary, "getCompressedTokenAccountsByOwner/V1/"+owner, &accountsV1)
		for _, c := range []struct {
			name string
			ok   bool
			p    page[tokenAccount]
		}{{"V2", okV2, accountsV2}, {"V1", okV1, accountsV1}} {
			if !c.ok {
				continue
			}
			var amounts []int64
			for _, a := range c.p.Items {
				n, err := strconv.ParseInt(a.Amount, 10, 64)
				if err != nil || a.Owner != owner || a.Mint != mint || a.Delegate != nil || a.State != 1 || a.Tree != smt1 || a.Hash == "" {
					t.Errorf("getCompressedTokenAccountsByOwner %s (%s): account %s", c.name, owner, e2ekit.Show(a))
				}
				amounts = append(amounts, n)
			}
			slices.Sort(amounts)
			if !slices.Equal(amounts, want.amounts) || c.p.Cursor != nil {
				t.Errorf("getCompressedTokenAccountsByOwner %s (%s): amounts %v cursor %v, want %v and no cursor", c.name, owner, amounts, c.p.Cursor, want.amounts)
			}
		}
		if okV1 && okV2 && !reflect.DeepEqual(accountsV1.Items, accountsV2.Items) {
			t.Errorf("getCompressedTokenAccountsByOwner(%s): V1 %s and V2 %s differ", owner, e2ekit.Show(accountsV1.Items), e2ekit.Show(accountsV2.Items))
		}

		for _, name := range []string{"getCompressedTokenAccountsByDelegate/", "getCompressedTokenAccountsByDelegate/V1/"} {
			var p page[tokenAccount]
			if e2ekit.Decode(t, summary, name+owner, &p) && (len(p.Items) != 0 || p.Cursor != nil) {
				t.Errorf("%s%s = %s, want no items and no cursor", name, owner, e2ekit.Show(p))
			}
		}
	}

	// Bob's balances with limit 1: the one mint, with the mint as cursor
	// since the page is full, then an empty page.
	var balancePages []page[balance]
	if e2ekit.Decode(t, summary, "getCompressedTokenBalancesByOwnerV2/paged", &balancePages) {
		want := []page[balance]{
			{Items: []balance{{mint, "105"}}, Cursor: ptr(mint)},
			{Items: []balance{}},
		}
		if !reflect.DeepEqual(balancePages, want) {
			t.Errorf("getCompressedTokenBalancesByOwnerV2(%s) by pages of 1 = %s, want %s", bob, e2ekit.Show(balancePages), e2ekit.Show(want))
		}
	}

	wantHolders := []holder{{charles, "895"}, {bob, "105"}}
	var holders page[holder]
	if e2ekit.Decode(t, summary, "getCompressedMintTokenHolders", &holders) {
		if !reflect.DeepEqual(holders.Items, wantHolders) || holders.Cursor != nil || holders.Slot == nil || *holders.Slot != 43 {
			t.Errorf("getCompressedMintTokenHolders = %s, want %v at slot 43, no cursor", e2ekit.Show(holders), wantHolders)
		}
	}
	// Limit 1, following the cursor: one holder a page, each full page with
	// a cursor (the ones in the corpus README), then an empty last page.
	var pages []page[holder]
	if e2ekit.Decode(t, summary, "getCompressedMintTokenHolders/paged", &pages) {
		var got []holder
		var cursors []string
		for _, p := range pages {
			got = append(got, p.Items...)
			if p.Cursor != nil {
				cursors = append(cursors, *p.Cursor)
			}
		}
		wantCursors := []string{
			"7K2qscW2yzN4uNTLfPbP7gYY71EMHUBRCp1xywskWEaDi5jFVZVuZBb",
			"6DbcXv5DFeZQiWaNV54hUfz5krmCBN9gf9zAAQC89kV3REuHacHRQLs",
		}
		if !reflect.DeepEqual(got, wantHolders) || !reflect.DeepEqual(cursors, wantCursors) || len(pages) != 3 || len(pages[2].Items) != 0 {
			t.Errorf("getCompressedMintTokenHolders by pages of 1 = %s, want %v with cursors %v, then an empty page", e2ekit.Show(pages), wantHolders, wantCursors)
		}
	}
}

// failure is client.mjs's record of a call expected to fail.
type failure struct {
	Threw   bool            `json:"threw"`
	Name    string          `json:"name"`
	Message string          `json:"message"`
	Value   json.RawMessage `json:"value"`
}

// checkErrors checks what the client shows for each kind of error
// (docs/das-compat.md lists them). The Photon methods answer JSON-RPC
// errors with HTTP 200, as Photon does, so the client shows dasch's
// message; an HTTP error status reaches the caller as the bare status.
func checkErrors(t *testing.T, summary map[string]json.RawMessage) {
	t.Helper()
	for _, c := range []struct {
		name    string
		threw   bool
		errName string
		prefix  string
	}{
		// A missing account is no error: the client returns null.
		{"error/missing", false, "", ""},
		{"error/params", true, "SolanaJSONRPCError", "failed to get info for compressed accounts by owner " + bob + ": invalid value for field `cursor`"},
		{"error/unknown-path", true, "Error", "HTTP error! status: 404"},
		{"error/no-key", true, "Error", "HTTP error! status: 401"},
	} {
		var f failure
		if !e2ekit.Decode(t, summary, c.name, &f) {
			continue
		}
		if f.Threw != c.threw || f.Name != c.errName || !strings.HasPrefix(f.Message, c.prefix) || (!c.threw && string(f.Value) != "null") {
			t.Errorf("%s: threw %v %s %q (value %s), want threw %v %s %q...", c.name, f.Threw, f.Name, f.Message, f.Value, c.threw, c.errName, c.prefix)
		}
	}
}

// client runs client.mjs against url and returns its summary.
func client(t *testing.T, ctx context.Context, url string, args ...string) map[string]json.RawMessage {
	t.Helper()
	return e2ekit.Client(t, ctx, "stateless.js", append([]string{url}, args...)...)
}

func ptr[T any](v T) *T { return &v }

// answerEncoding posts getIndexerSlot with acceptEncoding and returns the
// answer's Content-Encoding.
func answerEncoding(t *testing.T, url, acceptEncoding string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", acceptEncoding)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.Header.Get("Content-Encoding")
}
