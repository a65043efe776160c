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
