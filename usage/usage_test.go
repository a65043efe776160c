package usage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/admin"
	"github.com/dasch-labs/dasch/api/methods"
	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/billing"
	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/metrics"
	"github.com/dasch-labs/dasch/reqlog"
	"github.com/dasch-labs/dasch/server"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/usage"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

// env is a real server and admin service over the embedded store.
type env struct {
	s       arrowstore.Store
	keys    *auth.Checker
	log     *reqlog.Log
	rpc     string
	admin   string
	metrics *metrics.Registry
}

type envOptions struct {
	limits  bool
	timeout time.Duration
	health  server.Health
	billing string // a --billing file's contents
}

// down is a Health that fails while set.
type down struct{ on atomic.Bool }

func (d *down) Ready(context.Context) error {
	if d.on.Load() {
		return errors.New("store down")
	}
	return nil
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	s := storetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := billing.Defaults(billing.Families{DAS: methods.Names(methods.DAS), Photon: methods.Names(methods.Photon | methods.Indexer)})
	if o.billing != "" {
		var err error
		if cfg, err = billing.Parse(cfg, []byte(o.billing)); err != nil {
			t.Fatal(err)
		}
	}
	keys := auth.NewChecker(s)
	if err := keys.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	go keys.Watch(ctx, 20*time.Millisecond, nil)
	l, err := reqlog.New(s, reqlog.Options{FlushEvery: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.New()
	meter := usage.NewMeter(usage.Options{Config: &cfg, Log: l, Metrics: reg, Limits: o.limits})
	slots := checkpoint.NewSlotCache(s, 0)
	mo := methods.Options{Methods: methods.All, Store: s, Slots: slots}
	srv, err := server.New(server.Config{Listen: "127.0.0.1:0", Meter: meter, RequestTimeout: o.timeout,
		ProbeEvery: 20 * time.Millisecond}, methods.New(mo), usage.Keys{Checker: keys}, o.health)
	if err != nil {
		t.Fatal(err)
	}
	a, err := admin.New(admin.Options{Listen: "127.0.0.1:0", Keys: keys, Store: s, Config: &cfg, Meter: meter, Log: l, Metrics: reg})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { _ = srv.Serve(ctx); done <- struct{}{} }()
	go func() { _ = a.Serve(ctx); done <- struct{}{} }()
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
		_ = l.Close(context.Background())
	})
	return &env{s: s, keys: keys, log: l, rpc: "http://" + srv.Addr(), admin: "http://" + a.Addr(), metrics: reg}
}

var client = &http.Client{Timeout: 10 * time.Second}

type rpcAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends one JSON-RPC request with key in the query (or the header
// when header is set) and returns the HTTP status and the answer.
func (e *env) call(t *testing.T, key, method, params string, header bool) (int, rpcAnswer) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `"`
	if params != "" {
		body += `,"params":` + params
	}
	body += "}"
	status, b := e.post(t, key, body, header)
	var a rpcAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v in %s", method, err, b)
	}
	return status, a
}

func (e *env) post(t *testing.T, key, body string, header bool) (int, []byte) {
	t.Helper()
	url := e.rpc + "/"
	if !header {
		url += "?api-key=" + key
	}
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	if header {
		req.Header.Set("X-Api-Key", key)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// usageOf asks the admin service for project's usage with key.
func (e *env) usageOf(t *testing.T, key, project string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.admin+"/v0/admin/projects/"+project+"/usage", nil)
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("usage answer Content-Type %q", ct)
	}
	if !json.Valid(b) {
		t.Errorf("usage answer is not JSON: %s", b)
	}
	return resp.StatusCode, b
}

func record(t *testing.T, b []byte) billing.Record {
	t.Helper()
	var r billing.Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("usage record %s: %v", b, err)
	}
	return r
}

func newKey(t *testing.T, s arrowstore.Store, project string, services ...string) auth.NewKeyInfo {
	t.Helper()
	k, err := auth.CreateKeyFor(context.Background(), s, project, services)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

const (
	asset = `{"id":"9ARngHhVaCtH5JFieRdSS5Y8cdZk2TMF4tfGSWFB9iSK"}`
	owner = `{"ownerAddress":"9ARngHhVaCtH5JFieRdSS5Y8cdZk2TMF4tfGSWFB9iSK"}`
	hash  = `{"hash":"11111111111111111111111111111111"}`
)

// Scripted traffic from two projects, every method class and errors
// included: the usage endpoint answers exactly the credits and requests
// the price list gives them, each project its own.
func TestUsageOfScriptedTraffic(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	if _, err := auth.CreateProject(ctx, e.s, auth.ProjectSpec{Name: "alpha", Plan: ptr("developer")}); err != nil {
		t.Fatal(err)
	}
	a := newKey(t, e.s, "alpha")
	b := newKey(t, e.s, "beta")

	type step struct {
		key          auth.NewKeyInfo
		method, args string
		status       int
	}
	script := []step{
		{a, "getAsset", asset, 404},                             // das 10: a client error is charged
		{a, "getAsset", asset, 404},                             // das 10
		{a, "getAssetsByOwner", owner, 200},                     // das 10
		{a, "getAsset", `{}`, 400},                              // das 10: invalid params
		{a, "getCompressedAccount", hash, 200},                  // photon 10 (-32000 nothing indexed)
		{a, "getValidityProof", `{"hashes":[]}`, 200},           // photon 100
		{a, "getIndexerSlot", "", 200},                          // photon 10
		{a, "getIndexerSlot", "", 200},                          // photon 10
		{a, "noSuchMethod", "", 200},                            // not a method: not charged
		{b, "getIndexerSlot", "", 200},                          // photon 10
		{b, "getAsset", asset, 404},                             // das 10
		{auth.NewKeyInfo{Key: "wrong"}, "getAsset", asset, 401}, // no project
	}
	for i, st := range script {
		status, _ := e.call(t, st.key.Key, st.method, st.args, i%2 == 1)
		if status != st.status {
			t.Errorf("step %d %s: HTTP %d, want %d", i, st.method, status, st.status)
		}
	}
	// A batch: each element is a request of its own.
	if status, _ := e.post(t, a.Key, `[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},
		{"jsonrpc":"2.0","id":2,"method":"getAsset","params":`+asset+`}]`, false); status != 200 {
		t.Errorf("batch: HTTP %d", status)
	}

	status, body := e.usageOf(t, a.Key, a.ProjectID)
	if status != 200 {
		t.Fatalf("usage of alpha: %d %s", status, body)
	}
	ra := record(t, body)
	today := billing.CycleAt(time.Now().UTC().Truncate(24*time.Hour), time.Now())
	wantA := billing.Record{
		CreditsRemaining: 10_000_000 - 190, CreditsUsed: 190,
		CreditCycle: billing.DatesOf(today),
		SubscriptionDetails: billing.Subscription{BillingCycle: ptr(billing.DatesOf(today)), CreditsLimit: 10_000_000,
			Plan: "developer"},
		Credits:  billing.Credits{DAS: 50, Photon: 140},
		Requests: billing.Requests{DAS: 5, Photon: 5},
	}
	if !equal(ra, wantA) {
		t.Errorf("alpha:\n got %s\nwant %s", js(ra), js(wantA))
	}
	status, body = e.usageOf(t, b.Key, b.ProjectID)
	if status != 200 {
		t.Fatalf("usage of beta: %d %s", status, body)
	}
	rb := record(t, body)
	wantB := billing.Record{
		CreditsRemaining: 1_000_000 - 20, CreditsUsed: 20, CreditCycle: billing.DatesOf(today),
		SubscriptionDetails: billing.Subscription{CreditsLimit: 1_000_000, Plan: "free"},
		Credits:             billing.Credits{DAS: 10, Photon: 10},
		Requests:            billing.Requests{DAS: 1, Photon: 1},
	}
	if !equal(rb, wantB) {
		t.Errorf("beta:\n got %s\nwant %s", js(rb), js(wantB))
	}
	// The free plan has no billing cycle, and every member is present.
	var raw map[string]any
	_ = json.Unmarshal(body, &raw)
	if sd := raw["subscriptionDetails"].(map[string]any); sd["billingCycle"] != nil {
		t.Errorf("free plan billingCycle %v, want null", sd["billingCycle"])
	}
	if n := len(raw["credits"].(map[string]any)); n != 11 {
		t.Errorf("credits has %d members, want 11", n)
	}

	// Consistent with the request log: the same sums, read by SQL.
	res, err := e.s.Query(ctx, `SELECT sum(credits_micro), countIf(billed) FROM request_log
		WHERE project_id = {p:String} AND billed`, map[string]string{"p": a.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0].(uint64); got != 190*billing.Micro || res.Rows[0][1].(uint64) != 10 {
		t.Errorf("request log says %d micro-credits in %d requests", got, res.Rows[0][1])
	}
	res, err = e.s.Query(ctx, `SELECT count(), countIf(project_id = ''), countIf(key_id = {k:String}),
			countIf(method = 'getIndexerSlot' AND context_slot = 0), countIf(latency_us = 0)
		FROM request_log WHERE service != 'admin'`, map[string]string{"k": a.ID})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r[0].(uint64) != uint64(len(script))+2 || r[1].(uint64) != 1 || r[2].(uint64) != 11 {
		t.Errorf("request log rows %v: want %d rows, 1 without a project, 11 of alpha's key", r, len(script)+2)
	}
}

// The key of another project, or of none, never reads a project's
// usage: 400 for any id not the key's own (unknown ids alike), 401
// without a valid key, 429 past 5 requests a second.
func TestUsageEndpointRefusals(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := newKey(t, e.s, "alpha")
	b := newKey(t, e.s, "beta")
	for _, tc := range []struct {
		name, key, project string
		status             int
	}{
		{"other project", a.Key, b.ProjectID, 400},
		{"other project, reversed", b.Key, a.ProjectID, 400},
		{"unknown id", a.Key, "00000000000000000000000000000000", 400},
		{"missing key", "", a.ProjectID, 401},
		{"unknown key", "nope", a.ProjectID, 401},
	} {
		status, body := e.usageOf(t, tc.key, tc.project)
		if status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, status, body, tc.status)
		}
		var m map[string]string
		if err := json.Unmarshal(body, &m); err != nil || m["error"] == "" {
			t.Errorf("%s: body %s is not a JSON error", tc.name, body)
		}
	}
	// The query parameter works as the header does.
	resp, err := client.Get(e.admin + "/v0/admin/projects/" + a.ProjectID + "/usage?api-key=" + a.Key)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("api-key query parameter: %d", resp.StatusCode)
	}
	time.Sleep(1100 * time.Millisecond)
	for i := 1; i <= 6; i++ {
		status, body := e.usageOf(t, b.Key, b.ProjectID)
		want := 200
		if i == 6 {
			want = 429
		}
		if status != want {
			t.Errorf("request %d within a second: %d %s, want %d", i, status, body, want)
		}
	}
	// Another project has its own allowance.
	if status, _ := e.usageOf(t, a.Key, a.ProjectID); status != 200 {
		t.Errorf("alpha after beta's sixth: %d", status)
	}
}

// A key revoked while the server runs is refused from the next change
// check on; the project's other keys go on working.
func TestRevokedKeyFailsAtOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	k1 := newKey(t, e.s, "alpha")
	k2 := newKey(t, e.s, "alpha")
	for _, k := range []auth.NewKeyInfo{k1, k2} {
		if status, _ := e.call(t, k.Key, "getIndexerSlot", "", false); status != 200 {
			t.Fatalf("before revocation: %d", status)
		}
	}
	ctx := context.Background()
	if found, err := auth.RevokeKeyID(ctx, e.s, k1.ID); err != nil || !found {
		t.Fatalf("revoke: %v %v", found, err)
	}
	revoked := time.Now()
	for {
		status, a := e.call(t, k1.Key, "getIndexerSlot", "", false)
		if status == 401 && a.Error != nil && a.Error.Code == -32001 {
			break
		}
		if time.Since(revoked) > time.Second {
			t.Fatalf("revoked key still answered %d a second later", status)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if status, _ := e.call(t, k2.Key, "getIndexerSlot", "", false); status != 200 {
		t.Errorf("other key after revocation: %d", status)
	}
	if status, _ := e.usageOf(t, k1.Key, k1.ProjectID); status != 401 {
		t.Errorf("revoked key on the admin API: %d", status)
	}
}

// A plan of two requests a second per class.
const tightPlan = `{"plans":{"tight":{"creditsLimit":100,"rateLimits":{"das":2,"photon":2,"rpc":2}}}}`

// One test per row of the specification's error table.
func TestErrorTable(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		opts     envOptions
		services []string
		// method is called calls times, and the last answer checked.
		method, args string
		calls        int
		status, code int
		message      string
	}{
		{name: "-32005 too many requests, compressed state", opts: envOptions{limits: true, billing: tightPlan},
			method: "getCompressedAccount", args: hash, calls: 3, status: 429, code: -32005, message: "Too many requests"},
		{name: "-32005 too many requests, getIndexerSlot", opts: envOptions{limits: true, billing: tightPlan},
			method: "getIndexerSlot", calls: 3, status: 429, code: -32005, message: "Too many requests"},
		{name: "429 -32029, getAsset", opts: envOptions{limits: true, billing: tightPlan},
			method: "getAsset", args: asset, calls: 3, status: 429, code: -32029, message: "Too many requests"},
		{name: "429 -32029, other DAS", opts: envOptions{limits: true, billing: tightPlan},
			method: "getAssetsByOwner", args: owner, calls: 3, status: 429, code: -32029},
		{name: "-32002 service unavailable, DAS", opts: envOptions{health: &down{}},
			method: "getAsset", args: asset, calls: 1, status: 503, code: -32002, message: "Service unavailable"},
		{name: "-32002 service unavailable, compressed state", opts: envOptions{health: &down{}},
			method: "getCompressedAccount", args: hash, calls: 1, status: 503, code: -32002, message: "Service unavailable"},
		{name: "-32003 gateway timeout, compressed state", opts: envOptions{timeout: time.Nanosecond},
			method: "getCompressedAccount", args: hash, calls: 1, status: 504, code: -32003, message: "Gateway timeout"},
		{name: "-32003 forbidden, DAS", services: []string{"photon"},
			method: "getAsset", args: asset, calls: 1, status: 403, code: -32003, message: "Forbidden"},
		{name: "forbidden, compressed state", services: []string{"das"},
			method: "getIndexerSlot", calls: 1, status: 403, code: -32001},
		{name: "allowed service", services: []string{"das"},
			method: "getAsset", args: asset, calls: 1, status: 404, code: -32004},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			if _, err := auth.CreateProject(ctx, e.s, auth.ProjectSpec{Name: "p", Plan: ptr("tight")}); err != nil {
				t.Fatal(err)
			}
			k := newKey(t, e.s, "p", tc.services...)
			// In memory before the call: the timeout case has no time to
			// look it up.
			if err := e.keys.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if d, ok := tc.opts.health.(*down); ok {
				d.on.Store(true)
				time.Sleep(100 * time.Millisecond) // a few probes
			}
			var status int
			var a rpcAnswer
			for range tc.calls {
				status, a = e.call(t, k.Key, tc.method, tc.args, true)
			}
			if status != tc.status || a.Error == nil || a.Error.Code != tc.code ||
				tc.message != "" && a.Error.Message != tc.message {
				t.Errorf("HTTP %d %+v, want %d %d %q", status, a.Error, tc.status, tc.code, tc.message)
			}
		})
	}
}

// /metrics is the Prometheus text format with the request series.
func TestMetrics(t *testing.T) {
	e := newEnv(t, envOptions{limits: true, billing: tightPlan})
	if _, err := auth.CreateProject(context.Background(), e.s, auth.ProjectSpec{Name: "p", Plan: ptr("tight")}); err != nil {
		t.Fatal(err)
	}
	k := newKey(t, e.s, "p")
	for range 3 {
		e.call(t, k.Key, "getAsset", asset, false)
	}
	resp, err := client.Get(e.admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`dasch_requests_total{method="getAsset",status="404"} 2`,
		`dasch_requests_total{method="getAsset",status="429"} 1`,
		`dasch_rate_limited_total{class="das"} 1`,
		`dasch_request_duration_seconds_bucket{method="getAsset",status="404",le="+Inf"} 2`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("metrics lack %q:\n%s", want, b)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func equal(a, b billing.Record) bool { return js(a) == js(b) }
