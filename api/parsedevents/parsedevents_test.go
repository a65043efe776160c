package parsedevents_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/api/parsedevents"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/server/jsonrpc"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

const demoBlock = "../../testdata/demo/blocks/270893658.json"

// env is a real server on loopback over an embedded store holding the
// demo block and the DAS corpus's transactions.
type env struct {
	t    *testing.T
	s    arrowstore.Store
	base string
	key  string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	s := storetest.Open(t)
	key, _, err := auth.CreateKey(ctx, s, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []source.Source{source.NewFileList([]string{demoBlock}), mustFiles(t, "../../testdata/das/transactions"),
		mustFiles(t, "../../testdata/demo/e2e_mint_and_transfer_transactions")} {
		cfg := ingest.Config{Store: s, Source: src}
		if err := decoders.Configure(ctx, s, &cfg, decoders.Options{AssetsOnly: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := ingest.Run(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0"}, jsonrpc.NewRegistry(), auth.NewChecker(s), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := parsedevents.Register(srv, s, checkpoint.NewSlotCache(s, 0)); err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	t.Cleanup(func() {
		stop()
		<-done
	})
	return &env{t: t, s: s, base: "http://" + srv.Addr(), key: key}
}

func mustFiles(t *testing.T, dir string) source.Source {
	t.Helper()
	fs, err := source.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// post sends body to path with the key and returns the status and body.
func (e *env) post(path, body string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.base+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", e.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if !json.Valid(b) {
		e.t.Fatalf("answer is not JSON: %s", b)
	}
	return resp.StatusCode, b
}

func (e *env) rows(sql string, p store.Params) [][]any {
	e.t.Helper()
	res, err := e.s.Query(context.Background(), sql, p)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.Rows
}

type item struct {
	Signature    string          `json:"signature"`
	ParserStatus string          `json:"parserStatus"`
	ParserError  string          `json:"parserError"`
	Parsed       *parsedDoc      `json:"parsed"`
	Raw          json.RawMessage `json:"rawTransaction"`
}

type parsedDoc struct {
	Signature string          `json:"signature"`
	Slot      uint64          `json:"slot"`
	Fee       uint64          `json:"fee"`
	Timestamp *int64          `json:"timestamp"`
	Type      string          `json:"type"`
	Raw       json.RawMessage `json:"rawTransaction"`
}

const (
	wsolSig = "5whvTFEiavmYiwLcsVYvmpUkWj8JXKumQJYbas97tLYX6QRedrjgVJRjL3phMqSZ7akcaCxuMTCuh21zNbjBMFqv"
	unknown = "1111111111111111111111111111111111111111111111111111111111111111"
)

func TestEndpoints(t *testing.T) {
	e := newEnv(t)
	t.Run("transactions", func(t *testing.T) { testTransactions(t, e) })
	t.Run("errors", func(t *testing.T) { testErrors(t, e) })
	var addr string
	var want []string
	t.Run("history", func(t *testing.T) { addr, want = testHistory(t, e) })
	t.Run("graphql", func(t *testing.T) { testGraphQL(t, e, addr, want) })
}

func testTransactions(t *testing.T, e *env) {
	e.t = t
	status, body := e.post(parsedevents.PathTransactions,
		fmt.Sprintf(`{"transactions":[%q,%q,%q],"commitment":"finalized","includeRawTransaction":true}`, wsolSig, unknown, wsolSig))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var items []item
	if err := json.Unmarshal(body, &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("%d items, want 3 in request order", len(items))
	}
	for _, i := range []int{0, 2} {
		it := items[i]
		if it.Signature != wsolSig || it.ParserStatus != "OK" || it.Parsed == nil || it.Parsed.Signature != wsolSig ||
			it.Parsed.Fee != 7410 || it.Parsed.Slot != 270893658 || !bytes.Contains(it.Raw, []byte(`"meta"`)) {
			t.Errorf("item %d: %+v", i, it)
		}
	}
	if it := items[1]; it.Signature != unknown || it.ParserStatus != "ERROR" || it.ParserError == "" || it.Parsed != nil {
		t.Errorf("unknown signature: %+v", it)
	}
	_, body = e.post(parsedevents.PathTransactions, fmt.Sprintf(`{"transactions":[%q]}`, wsolSig))
	var one []item
	if err := json.Unmarshal(body, &one); err != nil || len(one) != 1 || one[0].Raw != nil || one[0].ParserStatus != "OK" {
		t.Errorf("raw transaction without includeRawTransaction: %s", body)
	}
}

func testErrors(t *testing.T, e *env) {
	e.t = t
	many := make([]string, 101)
	for i := range many {
		many[i] = `"` + wsolSig + `"`
	}
	tx, hist := parsedevents.PathTransactions, parsedevents.PathHistory
	addr := `"address":"CyZuD7RPDcrqCGbNvLCyqk6Py9cEZTKmNKujfPi3ynDd"`
	for _, tc := range []struct {
		path, body, want string
	}{
		{tx, `[]`, "body: must be a JSON object"},
		{tx, `{"transactions":[`, "body: malformed JSON"},
		{tx, `{}`, "transactions: required"},
		{tx, `{"transactions":[],"x":1}`, `body: unknown field "x"`},
		{tx, `{"transactions":[]}`, "transactions: must hold 1 to 100 signatures, got 0"},
		{tx, `{"transactions":[` + strings.Join(many, ",") + `]}`, "got 101"},
		{tx, `{"transactions":"abc"}`, "transactions: must be an array of signature strings"},
		{tx, `{"transactions":["0OIl"]}`, "transactions[0]: not a base58 signature"},
		{tx, `{"transactions":["` + wsolSig + `"],"commitment":"processed"}`, "commitment: must be confirmed or finalized"},
		{tx, `{"transactions":["` + wsolSig + `"],"includeRawTransaction":"yes"}`, "includeRawTransaction: must be true or false"},
		{hist, `{}`, "address: required"},
		{hist, `{"address":"abc"}`, "address: not a base58 address"},
		{hist, `{` + addr + `,"limit":0}`, "limit: must be an integer from 1 to 100"},
		{hist, `{` + addr + `,"limit":101}`, "limit: must be an integer from 1 to 100"},
		{hist, `{` + addr + `,"limit":2.5}`, "limit: must be an integer from 1 to 100"},
		{hist, `{` + addr + `,"sortOrder":"up"}`, "sortOrder: must be asc or desc"},
		{hist, `{` + addr + `,"paginationToken":"12"}`, "paginationToken: must be"},
		{hist, `{` + addr + `,"paginationToken":"a:1"}`, "paginationToken: must be"},
		{hist, `{` + addr + `,"paginationToken":"1:99999999999"}`, "paginationToken: must be"},
		{hist, `{` + addr + `,"beforeSignature":"xyz"}`, "beforeSignature: not a base58 signature"},
		{hist, `{` + addr + `,"afterSignature":"` + unknown + `"}`, "afterSignature: transaction " + unknown + " is not indexed"},
		{hist, `{` + addr + `,"slot":5}`, "slot: must be a JSON object"},
		{hist, `{` + addr + `,"slot":{"gt":1,"gte":2}}`, "slot: give gt or gte, not both"},
		{hist, `{` + addr + `,"time":{"lt":1,"lte":2}}`, "time: give lt or lte, not both"},
		{hist, `{` + addr + `,"slot":{"from":1}}`, `slot: unknown field "from"`},
		{hist, `{` + addr + `,"slot":{"gte":-1}}`, "slot.gte: must be an integer"},
		{hist, `{` + addr + `,"time":{"gte":1.5}}`, "time.gte: must be an integer"},
		{hist, `{` + addr + `,"time":{"gte":"x"}}`, "time.gte: must be an integer"},
		{hist, `{` + addr + `,"cursor":"x"}`, `body: unknown field "cursor"`},
	} {
		status, body := e.post(tc.path, tc.body)
		var a struct{ Error string }
		_ = json.Unmarshal(body, &a)
		if status != http.StatusBadRequest || !strings.Contains(a.Error, tc.want) {
			t.Errorf("%s %s: %d %s, want 400 with %q", tc.path, tc.body, status, body, tc.want)
		}
	}
	// The key, the method.
	resp, err := http.Post(e.base+tx, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no key: %d", resp.StatusCode)
	}
	resp, err = http.Get(e.base + hist + "?api-key=" + e.key)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", resp.StatusCode)
	}
}

type page struct {
	Data  []parsedDoc `json:"data"`
	Token *string     `json:"paginationToken"`
}

func (e *env) page(body string) page {
	e.t.Helper()
	status, b := e.post(parsedevents.PathHistory, body)
	if status != http.StatusOK {
		e.t.Fatalf("%s: %d %s", body, status, b)
	}
	var p page
	if err := json.Unmarshal(b, &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// pages follows paginationToken from the first page of body (a JSON
// object without its closing brace) to the end.
func (e *env) pages(body string) ([]string, int) {
	e.t.Helper()
	var sigs []string
	n := 0
	tok := ""
	for {
		b := body
		if tok != "" {
			b += `,"paginationToken":"` + tok + `"`
		}
		p := e.page(b + "}")
		n++
		for _, d := range p.Data {
			sigs = append(sigs, d.Signature)
		}
		if p.Token == nil {
			return sigs, n
		}
		tok = *p.Token
		if n > 1000 {
			e.t.Fatal("paging does not end")
		}
	}
}

// testHistory returns the address it paged and its history, newest
// first.
func testHistory(t *testing.T, e *env) (string, []string) {
	e.t = t
	// The address with transactions in the most slots, then the most.
	top := e.rows(`SELECT address, uniqExact(slot) s, uniqExact(signature) n FROM address_transactions
		GROUP BY address ORDER BY s DESC, n DESC, address LIMIT 1`, nil)[0]
	var a solana.Pubkey
	copy(a[:], top[0].(string))
	addr := a.String()
	// Each transaction in a slot of its own, so before and after a
	// signature are the rest of the list.
	if top[1].(uint64) < 3 || top[2].(uint64) < 7 || top[1] != top[2] {
		t.Fatalf("address %s has %d transactions in %d slots: the fixtures are too small", addr, top[2], top[1])
	}
	t.Logf("history of %s: %d transactions in %d slots", addr, top[2], top[1])
	var want []string
	var slots []uint64
	for _, r := range e.rows(`SELECT signature, slot FROM address_transactions FINAL WHERE address = {a:FixedString(32)}
		ORDER BY slot DESC, tx_index DESC, signature DESC`, store.Params{"a": string(a[:])}) {
		var s solana.Signature
		copy(s[:], r[0].(string))
		want = append(want, s.String())
		slots = append(slots, r[1].(uint64))
	}

	got, n := e.pages(`{"address":"` + addr + `","limit":3`)
	if !slices.Equal(got, want) || n != (len(want)+2)/3 {
		t.Fatalf("desc pages (%d): %v\nwant %v", n, got, want)
	}
	full := e.page(`{"address":"` + addr + `"}`)
	if len(full.Data) != len(want) || full.Token != nil {
		t.Errorf("default limit: %d items, token %v", len(full.Data), full.Token)
	}
	asc, _ := e.pages(`{"address":"` + addr + `","limit":2,"sortOrder":"asc"`)
	rev := slices.Clone(want)
	slices.Reverse(rev)
	if !slices.Equal(asc, rev) {
		t.Errorf("asc pages %v\nwant %v", asc, rev)
	}
	// Back from the end: after the oldest, newest last.
	back, _ := e.pages(`{"address":"` + addr + `","limit":4,"sortOrder":"asc","afterSignature":"` + want[len(want)-1] + `"`)
	if !slices.Equal(back, rev[1:]) {
		t.Errorf("back from the end %v\nwant %v", back, rev[1:])
	}
	mid := len(want) / 2
	before, _ := e.pages(`{"address":"` + addr + `","limit":3,"beforeSignature":"` + want[mid] + `"`)
	if wantBefore := want[mid+1:]; !slices.Equal(before, wantBefore) {
		t.Errorf("before %s: %v\nwant %v", want[mid], before, wantBefore)
	}

	// Slot and time filters.
	lo := slices.Min(slots)
	gt, _ := e.pages(fmt.Sprintf(`{"address":"%s","limit":3,"slot":{"gt":%d}`, addr, lo))
	var wantGt []string
	for i, s := range slots {
		if s > lo {
			wantGt = append(wantGt, want[i])
		}
	}
	if !slices.Equal(gt, wantGt) || len(wantGt) == 0 {
		t.Errorf("slot gt %d: %v\nwant %v", lo, gt, wantGt)
	}
	only, _ := e.pages(fmt.Sprintf(`{"address":"%s","limit":3,"slot":{"gte":%d,"lte":%d}`, addr, lo, lo))
	if len(only) != len(want)-len(wantGt) {
		t.Errorf("slot %d only: %d items, want %d", lo, len(only), len(want)-len(wantGt))
	}
	if p := e.page(fmt.Sprintf(`{"address":"%s","slot":{"lt":0}}`, addr)); len(p.Data) != 0 || p.Token != nil {
		t.Errorf("empty slot range: %+v", p)
	}
	times := e.rows(`SELECT min(block_time), max(block_time), countIf(block_time = max_bt) FROM address_transactions FINAL
		CROSS JOIN (SELECT max(block_time) max_bt FROM address_transactions WHERE address = {a:FixedString(32)}) m
		WHERE address = {a:FixedString(32)}`, store.Params{"a": string(a[:])})[0]
	newest, _ := e.pages(fmt.Sprintf(`{"address":"%s","limit":2,"time":{"gte":%d}`, addr, times[1].(int64)))
	if uint64(len(newest)) != times[2].(uint64) {
		t.Errorf("time gte %d: %d items, want %d", times[1], len(newest), times[2])
	}
	if p := e.page(fmt.Sprintf(`{"address":"%s","time":{"gt":%d}}`, addr, times[1].(int64))); len(p.Data) != 0 {
		t.Errorf("time past the newest: %d items", len(p.Data))
	}
	// includeRawTransaction adds the raw transaction to each item.
	p := e.page(`{"address":"` + addr + `","limit":1,"includeRawTransaction":true}`)
	if len(p.Data) != 1 || !bytes.Contains(p.Data[0].Raw, []byte(`"meta"`)) {
		t.Errorf("raw in history: %+v", p.Data)
	}
	// Rows not merged yet come twice: each transaction is still listed
	// once, and pages stay full.
	if err := e.s.Exec(context.Background(), `INSERT INTO address_transactions SELECT * FROM address_transactions
		WHERE address = {a:FixedString(32)}`, store.Params{"a": string(a[:])}); err != nil {
		t.Fatal(err)
	}
	if n := e.rows(`SELECT count() FROM address_transactions WHERE address = {a:FixedString(32)}`, store.Params{"a": string(a[:])})[0][0].(uint64); n < 2*uint64(len(want)) {
		t.Fatalf("%d rows after the copy, want at least %d", n, 2*len(want))
	}
	again, n := e.pages(`{"address":"` + addr + `","limit":3`)
	if !slices.Equal(again, want) || n != (len(want)+2)/3 {
		t.Errorf("pages over copies (%d): %v\nwant %v", n, again, want)
	}
	// An address with no history.
	if p := e.page(`{"address":"` + solana.Pubkey{9}.String() + `"}`); len(p.Data) != 0 || p.Token != nil {
		t.Errorf("unknown address: %+v", p)
	}
	return addr, want
}
