package auth_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func TestKeysLifecycle(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	k1, p1, err := auth.CreateKey(ctx, s, "demo")
	if err != nil {
		t.Fatal(err)
	}
	k2, p2, err := auth.CreateKey(ctx, s, "demo")
	if err != nil {
		t.Fatal(err)
	}
	_, p3, err := auth.CreateKey(ctx, s, "other")
	if err != nil {
		t.Fatal(err)
	}
	if k1 == k2 || p1 != p2 || p1 == p3 {
		t.Fatalf("keys %s %s projects %s %s %s", k1, k2, p1, p2, p3)
	}
	c := auth.NewChecker(s)
	tests := []struct {
		key  string
		ok   bool
		proj string
	}{
		{k1, true, p1}, {k2, true, p1}, {"", false, ""}, {"nope", false, ""}, {k1 + "x", false, ""},
	}
	for _, tc := range tests {
		pid, ok, err := c.CheckKey(ctx, tc.key)
		if err != nil || ok != tc.ok || pid != tc.proj {
			t.Errorf("CheckKey(%q) = %q, %v, %v; want %q, %v", tc.key, pid, ok, err, tc.proj, tc.ok)
		}
	}
	if _, _, err := auth.CreateKey(ctx, s, "  "); err == nil {
		t.Error("empty project name accepted")
	}
	if err := auth.RevokeKey(ctx, s, k1); err != nil {
		t.Fatal(err)
	}
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := c.CheckKey(ctx, k1); ok {
		t.Error("revoked key still accepted")
	}
	if _, ok, _ := c.CheckKey(ctx, k2); !ok {
		t.Error("other key of the project rejected")
	}
	// The plaintext key is never stored.
	res, err := s.Query(ctx, "SELECT count() FROM api_keys WHERE position(toString(key_hash), {k:String}) > 0 OR key_prefix = {k:String}", map[string]string{"k": k2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0].(uint64) != 0 {
		t.Error("plaintext key found in api_keys")
	}
}

// countingStore counts the queries that reach the store.
type countingStore struct {
	store.Querier
	n atomic.Int64
}

func (c *countingStore) Query(ctx context.Context, sql string, p store.Params) (*store.Result, error) {
	c.n.Add(1)
	return c.Querier.Query(ctx, sql, p)
}

// A flood of distinct unknown keys costs a bounded number of store
// lookups, not one each; a known key is still answered from memory during
// the flood, and a key created after it works once the ration refills.
func TestUnknownKeyFloodIsRationed(t *testing.T) {
	ctx := context.Background()
	base := storetest.Open(t)
	known, pid, err := auth.CreateKey(ctx, base, "flood")
	if err != nil {
		t.Fatal(err)
	}
	s := &countingStore{Querier: base}
	c := auth.NewChecker(s)
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	s.n.Store(0)
	start := time.Now()
	const flood = 2000
	for i := range flood {
		if _, ok, err := c.CheckKey(ctx, fmt.Sprintf("random-key-%d", i)); ok || err != nil {
			t.Fatalf("random key %d: ok %v, err %v", i, ok, err)
		}
		if i%100 == 0 {
			if got, ok, _ := c.CheckKey(ctx, known); !ok || got != pid {
				t.Fatalf("known key rejected during the flood")
			}
		}
	}
	elapsed := time.Since(start).Seconds()
	if max := int64(auth.MissLookups * (1 + elapsed + 1)); s.n.Load() > max {
		t.Errorf("%d store queries for %d unknown keys in %.1f s, want at most %d", s.n.Load(), flood, elapsed, max)
	}
	fresh, _, err := auth.CreateKey(ctx, base, "flood")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second / auth.MissLookups * 2)
	if _, ok, err := c.CheckKey(ctx, fresh); !ok || err != nil {
		t.Errorf("key created after the flood: ok %v, err %v", ok, err)
	}
}

func TestProjects(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	plan := "developer"
	p, err := auth.CreateProject(ctx, s, auth.ProjectSpec{Name: "alpha", Plan: &plan})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auth.CreateProject(ctx, s, auth.ProjectSpec{Name: "alpha"}); err == nil {
		t.Error("a second project named alpha")
	}
	if p.Plan != "developer" || p.CreditsLimit != nil || !p.Anchor().Equal(p.Created.UTC().Truncate(24*time.Hour)) {
		t.Errorf("created %+v", p)
	}
	limit, prepaid := uint64(500), uint64(70)
	anchor := time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)
	if _, err := auth.SetProject(ctx, s, "alpha", auth.ProjectSpec{CreditsLimit: &limit, PrepaidCredits: &prepaid, BillingAnchor: &anchor}); err != nil {
		t.Fatal(err)
	}
	got, found, err := auth.GetProject(ctx, s, p.ID)
	if err != nil || !found {
		t.Fatal(found, err)
	}
	if got.Plan != "developer" || got.CreditsLimit == nil || *got.CreditsLimit != 500 || got.PrepaidCredits != 70 ||
		!got.Anchor().Equal(anchor) || got.PrepaidAt.Before(p.PrepaidAt) || got.Name != "alpha" {
		t.Errorf("after set %+v", got)
	}
	// Back to the plan's credits, immediately after: the later row wins.
	if _, err := auth.SetProject(ctx, s, p.ID, auth.ProjectSpec{ClearLimit: true}); err != nil {
		t.Fatal(err)
	}
	got, _, _ = auth.GetProject(ctx, s, p.ID)
	if got.CreditsLimit != nil || got.PrepaidCredits != 70 {
		t.Errorf("after clearing the limit %+v", got)
	}
	bad := "no plan"
	if _, err := auth.SetProject(ctx, s, "alpha", auth.ProjectSpec{Plan: &bad}); err == nil {
		t.Error("a plan name with a space")
	}
	if _, err := auth.SetProject(ctx, s, "nobody", auth.ProjectSpec{}); err == nil {
		t.Error("set of a missing project")
	}
	ps, err := auth.ListProjects(ctx, s)
	if err != nil || len(ps) != 1 {
		t.Errorf("list %v %v", ps, err)
	}
}

// Keys have public ids; the checker knows their plan and services and
// follows revocations and plan changes through Sync.
func TestKeyIDsAndSync(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	k, err := auth.CreateKeyFor(ctx, s, "alpha", []string{"das"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := auth.CreateKeyFor(ctx, s, "alpha", nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.ID != auth.KeyID(k.Key) || len(k.ID) != 16 || k.ID == other.ID {
		t.Errorf("ids %s %s", k.ID, other.ID)
	}
	c := auth.NewChecker(s)
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.Resolve(ctx, k.Key)
	if err != nil || !ok || got.ID != k.ID || got.Plan != auth.DefaultPlan || len(got.Services) != 1 || got.Services[0] != "das" {
		t.Errorf("resolve %+v %v %v", got, ok, err)
	}
	if g, _, _ := c.Resolve(ctx, other.Key); g.Services != nil {
		t.Errorf("a key for every service has services %v", g.Services)
	}
	if changed, err := c.Sync(ctx); err != nil || changed {
		t.Errorf("sync without a change: %v %v", changed, err)
	}
	plan := "business"
	if _, err := auth.SetProject(ctx, s, "alpha", auth.ProjectSpec{Plan: &plan}); err != nil {
		t.Fatal(err)
	}
	if found, err := auth.RevokeKeyID(ctx, s, k.ID); err != nil || !found {
		t.Fatal(found, err)
	}
	if found, _ := auth.RevokeKeyID(ctx, s, "00000000000000ff"); found {
		t.Error("revoked a key that does not exist")
	}
	if _, err := auth.RevokeKeyID(ctx, s, "xyz"); err == nil {
		t.Error("a malformed id accepted")
	}
	if changed, err := c.Sync(ctx); err != nil || !changed {
		t.Fatalf("sync after a revocation: %v %v", changed, err)
	}
	if _, ok := c.Known(k.Key); ok {
		t.Error("revoked key still known")
	}
	if g, ok := c.Known(other.Key); !ok || g.Plan != "business" {
		t.Errorf("plan change not seen: %+v %v", g, ok)
	}
	keys, err := auth.ListKeys(ctx, s, "alpha")
	if err != nil || len(keys) != 2 {
		t.Fatalf("list %v %v", keys, err)
	}
	revoked := 0
	for _, l := range keys {
		if l.Project != "alpha" {
			t.Errorf("listing %+v", l)
		}
		if l.Revoked {
			revoked++
			if l.ID != k.ID || len(l.Services) != 1 {
				t.Errorf("revoked listing %+v", l)
			}
		}
	}
	if revoked != 1 {
		t.Errorf("%d revoked", revoked)
	}
}
