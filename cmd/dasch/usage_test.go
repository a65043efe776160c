package main_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// The projects and keys commands, end to end on one store.
func TestProjectsAndKeysCommands(t *testing.T) {
	store := "embedded:" + t.TempDir()
	out := mustDasch(t, "projects", "create", "--store", store, "--plan", "developer", "--prepaid-credits", "5",
		"--billing-anchor", "2026-01-31", "alpha")
	if !strings.Contains(out, "alpha") || !strings.Contains(out, "developer") || !strings.Contains(out, "2026-01-31") {
		t.Errorf("create:\n%s", out)
	}
	mustDasch(t, "projects", "set", "--store", store, "--credits-limit", "100", "alpha")
	out = mustDasch(t, "projects", "list", "--store", store)
	if f := strings.Fields(strings.Split(strings.TrimSpace(out), "\n")[1]); len(f) < 6 || f[1] != "alpha" || f[2] != "developer" || f[3] != "100" || f[5] != "5" {
		t.Errorf("list:\n%s", out)
	}
	out = mustDasch(t, "keys", "create", "--store", store, "--project", "alpha", "--services", "das")
	first := strings.Split(out, "\n")[0]
	id := first[strings.LastIndex(first, " ")+1:]
	if len(id) != 16 || len(lastLine(out)) < 30 {
		t.Fatalf("keys create:\n%s", out)
	}
	out = mustDasch(t, "keys", "list", "--store", store, "--project", "alpha")
	if !strings.Contains(out, id) || !strings.Contains(out, "das") || !strings.Contains(out, "active") || strings.Contains(out, "revoked") {
		t.Errorf("keys list:\n%s", out)
	}
	if out := mustDasch(t, "keys", "revoke", "--store", store, id); !strings.Contains(out, "revoked") {
		t.Errorf("revoke: %s", out)
	}
	if out := mustDasch(t, "keys", "list", "--store", store); !strings.Contains(out, "revoked") {
		t.Errorf("keys list after revoke:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"keys", "revoke", "--store", store, "00000000000000ff"}, "no key with id"},
		{[]string{"keys", "revoke", "--store", store}, "expected one key id"},
		{[]string{"keys", "create", "--store", store, "--project", "x", "--services", "webhooks"}, "unknown service"},
		{[]string{"keys", "frob"}, "unknown subcommand"},
		{[]string{"projects", "create", "--store", store, "alpha"}, "exists"},
		{[]string{"projects", "set", "--store", store, "--billing-anchor", "31/01/2026", "alpha"}, "YYYY-MM-DD"},
		{[]string{"projects", "set", "--store", store, "--credits-limit", "-1", "alpha"}, "whole number"},
		{[]string{"projects", "set", "--store", store, "nobody"}, "no project"},
		{[]string{"projects"}, "expected a subcommand"},
		{[]string{"serve", "--billing", "/nonexistent.json"}, "billing config"},
		{[]string{"serve", "--prover", "localhost:3001"}, "--prover: prover: \"localhost:3001\" is not an http(s) URL"},
		{[]string{"serve", "--rpc-upstream", "node:8899"}, "--rpc-upstream: upstream: \"node:8899\" is not an http(s) URL"},
		{[]string{"serve", "--price-refresh", "-1s"}, "--price-refresh: -1s, want 0 (off) or more"},
	} {
		_, errOut, err := dasch(t, tc.args...)
		if err == nil || !strings.Contains(errOut, tc.want) {
			t.Errorf("dasch %v: err=%v stderr=%q, want %q", tc.args, err, errOut, tc.want)
		}
	}
}

// --print-billing prints the built-in prices and plans as a --billing
// file states them.
func TestPrintBilling(t *testing.T) {
	out := mustDasch(t, "serve", "--print-billing")
	var cfg struct {
		Methods map[string]struct {
			Service string  `json:"service"`
			Credits float64 `json:"credits"`
		} `json:"methods"`
		Plans map[string]struct {
			CreditsLimit uint64 `json:"creditsLimit"`
		} `json:"plans"`
	}
	if err := json.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for m, want := range map[string]float64{"getAsset": 10, "getCompressedAccount": 10, "getValidityProof": 100, "getIndexerSlot": 10} {
		if got := cfg.Methods[m].Credits; got != want {
			t.Errorf("%s costs %v, want %v", m, got, want)
		}
	}
	if cfg.Methods["getAsset"].Service != "das" || cfg.Methods["getIndexerSlot"].Service != "photon" || cfg.Plans["free"].CreditsLimit != 1_000_000 {
		t.Errorf("config %+v", cfg)
	}
}
