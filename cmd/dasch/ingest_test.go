package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestIngestCompressed ingests the demo data, whose e2e set is a compressed
// token mint and three transfers, and reads the derived balances.
func TestIngestCompressed(t *testing.T) {
	cases := []struct {
		name  string
		flags []string // extra ingest flags
		want  string   // last line of the balances, or the error
		fails bool
	}{
		{"built-in trees", nil, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu\t105", false},
		{"trees file", []string{"--trees", "../../config/trees.json"}, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu\t105", false},
		{"missing trees file", []string{"--trees", "missing.json"}, "trees: open missing.json", true},
		// One-row batches, each its own part: the same answers.
		{"tiny batches", []string{"--batch-rows", "1", "--batch-mb", "1", "--batch-age", "1ms", "--part-rows", "1"}, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu\t105", false},
		// One-row batches into one part of every table: the same answers.
		{"tiny batches one part", []string{"--batch-rows", "1", "--part-age", "1h"}, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu\t105", false},
		{"part rows zero", []string{"--part-rows", "0"}, "--part-rows, --part-mb (at most 65536) and --part-age must be positive", true},
		{"part mb too large", []string{"--part-mb", "65537"}, "--part-rows, --part-mb (at most 65536) and --part-age must be positive", true},
		{"batch rows zero", []string{"--batch-rows", "0"}, "--batch-rows, --batch-mb (at most 16384) and --batch-age must be positive", true},
		{"batch age negative", []string{"--batch-age", "-1s"}, "must be positive", true},
		// Old balances read from the store every step: the same answers.
		{"no balance cache", []string{"--balance-cache", "0"}, "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu\t105", false},
		{"balance cache negative", []string{"--balance-cache", "-1"}, "--balance-cache must not be negative", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
			args := append([]string{"ingest", "--store", storeURL, "--source", "files:../../testdata/demo"}, c.flags...)
			out, errOut, err := dasch(t, args...)
			if c.fails {
				if err == nil || !strings.Contains(errOut, c.want) {
					t.Fatalf("ingest: %v %q, want %q", err, errOut, c.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("ingest: %v\n%s%s", err, out, errOut)
			}
			got := mustDasch(t, "sql", "--store", storeURL, "--format", "tsv",
				"SELECT base58Encode(owner), balance FROM token_balances FINAL ORDER BY balance DESC")
			lines := strings.Split(strings.TrimSpace(got), "\n")
			if len(lines) < 2 || !strings.Contains(got, "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX\t895") || lines[len(lines)-1] != c.want {
				t.Errorf("balances:\n%s", got)
			}
		})
	}
}

// TestIngestFilesResume: --resume goes on after what the last run over
// the directory committed; a run over another directory does not count.
func TestIngestFilesResume(t *testing.T) {
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	const demo = "files:../../testdata/demo"
	out := mustDasch(t, "ingest", "--store", storeURL, "--source", demo, "--resume")
	if !strings.Contains(out, "nothing of "+demo+" committed yet: reading every file") {
		t.Errorf("first run:\n%s", out)
	}
	out = mustDasch(t, "ingest", "--store", storeURL, "--source", demo, "--resume")
	if !strings.Contains(out, "resuming "+demo+" after slot ") || !strings.Contains(out, "ingested 0 items") {
		t.Errorf("resumed run:\n%s", out)
	}
	const other = "files:../../chain/testdata/das/accounts"
	out = mustDasch(t, "ingest", "--store", storeURL, "--source", other, "--resume")
	if !strings.Contains(out, "nothing of "+other+" committed yet") || strings.Contains(out, "ingested 0 items") {
		t.Errorf("run over another directory:\n%s", out)
	}
}

// TestMemoryBudget: --memory-budget gives the engine half, and a query
// past it fails with the engine's error, not a killed process.
func TestMemoryBudget(t *testing.T) {
	storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
	got := mustDasch(t, "sql", "--store", storeURL, "--memory-budget", "128", "--format", "tsv",
		"SELECT value FROM system.server_settings WHERE name = 'max_server_memory_usage'")
	if !strings.HasSuffix(strings.TrimSpace(got), "\n67108864") {
		t.Errorf("engine limit under a 128 MiB budget: %q", got)
	}
	_, errOut, err := dasch(t, "sql", "--store", storeURL, "--memory-budget", "128",
		"SELECT count() FROM (SELECT groupArray(number) FROM numbers(100000000))")
	if err == nil || !strings.Contains(errOut, "memory limit exceeded") {
		t.Errorf("a query past the budget: %v %q", err, errOut)
	}
	if _, errOut, err := dasch(t, "ingest", "--store", storeURL, "--memory-budget", "-1", "--source", "files:../../testdata/demo"); err == nil ||
		!strings.Contains(errOut, "--memory-budget must not be negative") {
		t.Errorf("negative budget: %v %q", err, errOut)
	}
}

// TestIngestWithoutParsedEvents: --parsed-events=false leaves the
// parsed-events tables empty and everything else as it is.
func TestIngestWithoutParsedEvents(t *testing.T) {
	for _, c := range []struct {
		flag string
		want string
	}{{"--parsed-events=true", "50"}, {"--parsed-events=false", "0"}} {
		storeURL := "embedded:" + filepath.Join(t.TempDir(), "data")
		mustDasch(t, "ingest", "--store", storeURL, "--source", "files:../../testdata/demo", c.flag)
		got := mustDasch(t, "sql", "--store", storeURL, "--format", "tsv",
			"SELECT (SELECT count() FROM parsed_transactions) || ' ' || (SELECT toString(count()) FROM token_balances FINAL)")
		lines := strings.Split(strings.TrimSpace(got), "\n")
		if n, _, _ := strings.Cut(lines[len(lines)-1], " "); n != c.want || strings.HasSuffix(lines[len(lines)-1], " 0") {
			t.Errorf("%s: parsed transactions and balances %q, want %s parsed and some balances", c.flag, lines[len(lines)-1], c.want)
		}
	}
}
