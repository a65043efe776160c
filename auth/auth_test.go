package auth_test

import (
	"context"
	"os"
	"testing"

	"github.com/dasch-labs/dasch/auth"
	"github.com/dasch-labs/dasch/internal/storetest"
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
