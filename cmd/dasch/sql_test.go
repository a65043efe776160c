package main

import "testing"

func TestOwnFormat(t *testing.T) {
	for _, c := range []struct {
		sql, want string
	}{
		{"SELECT 1", ""},
		{"SELECT 1 FORMAT CSV", "CSV"},
		{"select 1 format JSONEachRow;", "JSONEachRow"},
		{"SELECT 1\nFORMAT TSVRaw ;\n", "TSVRaw"},
		{"SELECT 1 FORMAT Vertical\n-- a note\n", "Vertical"},
		{"SELECT 1 FORMAT Vertical;\n  -- a note\n-- another;\n", "Vertical"},
		{"SELECT 'FORMAT CSV'", ""},
		{"SELECT 1 AS format", ""},
		{"SELECT format FROM t", ""},
		{"SELECT 1 FORMAT", ""},
		{"SELECT 1 FORMAT 2x", ""},
	} {
		if got := ownFormat(c.sql); got != c.want {
			t.Errorf("ownFormat(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}
