package main_test

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// Keys are created, listed and revoked through a running server's admin
// API (the embedded store is held by the server), and a revoked key is
// refused on the very next request, not at the next change check.
func TestAdminKeysAtOnce(t *testing.T) {
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	adminAddr := l.Addr().String()
	l.Close()
	// A change check far away: only the admin API can make it at once.
	base, _ := serve(t, storeURL, "--admin-listen", adminAddr, "--admin-token", "op-secret", "--keys-watch", "1h")
	adminURL := "http://" + adminAddr
	t.Setenv("DASCH_ADMIN_TOKEN", "op-secret")

	out := mustDasch(t, "keys", "create", "--admin", adminURL, "--project", "live", "--services", "photon")
	key := lastLine(out)
	if !strings.Contains(out, "project live (") {
		t.Fatalf("keys create --admin: %s", out)
	}
	const slot = `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`
	if status, m, raw := rpc(t, base+"/?api-key="+key, slot); status != 200 || m["result"] == nil {
		t.Fatalf("a new key: HTTP %d %s", status, raw)
	}
	list := mustDasch(t, "keys", "list", "--admin", adminURL, "--project", "live")
	fields := strings.Fields(lastLine(list))
	if len(fields) < 2 || !strings.Contains(list, "active") || !strings.HasPrefix(key, strings.TrimSuffix(fields[1], "…")) {
		t.Fatalf("keys list --admin:\n%s", list)
	}
	id := fields[0]
	if out := mustDasch(t, "keys", "revoke", "--admin", adminURL, id); !strings.Contains(out, "revoked") {
		t.Fatalf("keys revoke --admin: %s", out)
	}
	if status, _, raw := rpc(t, base+"/?api-key="+key, slot); status != 401 {
		t.Fatalf("the revoked key right after: HTTP %d %s", status, raw)
	}
	if list := mustDasch(t, "keys", "list", "--admin", adminURL); !strings.Contains(list, "revoked") {
		t.Fatalf("keys list after revoke:\n%s", list)
	}

	for _, c := range []struct {
		args []string
		env  string
		want string
	}{
		{[]string{"keys", "revoke", "--admin", adminURL, "00000000000000ff"}, "op-secret", "no key with id 00000000000000ff (HTTP 404)"},
		{[]string{"keys", "revoke", "--admin", adminURL, "zz"}, "op-secret", "want the 16 hex digits"},
		{[]string{"keys", "list", "--admin", adminURL}, "wrong", "missing or wrong operator token"},
		{[]string{"keys", "list", "--admin", adminURL}, "", "--admin needs the operator token"},
	} {
		t.Setenv("DASCH_ADMIN_TOKEN", c.env)
		if _, errOut, err := dasch(t, c.args...); err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: %v %q, want %q", c.args, err, errOut, c.want)
		}
	}
}
