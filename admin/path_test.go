package admin

import (
	"strings"
	"testing"
)

func TestUsagePath(t *testing.T) {
	for _, tc := range []struct {
		path, id string
		ok       bool
	}{
		{"/v0/admin/projects/abc/usage", "abc", true},
		{"/v0/admin/projects//usage", "", false},
		{"/v0/admin/projects/a/b/usage", "", false},
		{"/v0/admin/projects/abc/usage/", "", false},
		{"/v0/admin/projects/abc", "", false},
		{"/v1/admin/projects/abc/usage", "", false},
	} {
		if id, ok := usagePath(tc.path); id != tc.id || ok != tc.ok {
			t.Errorf("usagePath(%q) = %q, %v", tc.path, id, ok)
		}
	}
}

func FuzzUsagePath(f *testing.F) {
	f.Add("/v0/admin/projects/abc/usage")
	f.Add("/v0/admin/projects//usage")
	f.Fuzz(func(t *testing.T, p string) {
		id, ok := usagePath(p)
		if ok && (id == "" || strings.Contains(id, "/") || p != "/v0/admin/projects/"+id+"/usage") {
			t.Fatalf("usagePath(%q) = %q", p, id)
		}
	})
}
