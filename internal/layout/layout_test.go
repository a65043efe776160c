// Package layout holds the checks that keep the tree's architecture as the
// README draws it: the chain model is pure, the read side does not depend
// on the ingester, and the server binary carries no benchmark code.
package layout

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dasch-labs/dasch"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list runs go list over patterns from the module root.
func list(t *testing.T, patterns ...string) []pkg {
	t.Helper()
	args := append([]string{"list", "-json=ImportPath,Imports,Deps"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// rel is p's path inside the module, "" for the root.
func rel(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
}

func under(p string, dirs ...string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// violations lists, for every package selected by from, the imports (or
// deps, with deps set) that bad reports.
func violations(pkgs []pkg, from func(string) bool, deps bool, bad func(string) bool) []string {
	var out []string
	for _, p := range pkgs {
		if !from(rel(p.ImportPath)) {
			continue
		}
		imps := p.Imports
		if deps {
			imps = p.Deps
		}
		for _, imp := range imps {
			if bad(imp) {
				out = append(out, rel(p.ImportPath)+" -> "+imp)
			}
		}
	}
	return out
}

func inModule(imp string, dirs ...string) bool {
	return strings.HasPrefix(imp, module+"/") && under(rel(imp), dirs...)
}

// The rules, each a table row: which packages, what they must not import.
// Test files are not checked: tests seed stores through the real ingester.
func TestLayout(t *testing.T) {
	pkgs := list(t, "./...")
	rules := []struct {
		name string
		from func(string) bool
		deps bool
		bad  func(string) bool
	}{
		{
			// bench and conformance drive whole ingests; cmd composes.
			name: "only the ingester, its drivers and commands import ingest/",
			from: func(p string) bool { return !under(p, "ingest", "cmd", "bench", "conformance") },
			bad:  func(imp string) bool { return inModule(imp, "ingest") },
		},
		{
			name: "the chain model and decoders link no storage, pipeline or Arrow",
			from: func(p string) bool { return under(p, "chain") },
			deps: true,
			bad: func(imp string) bool {
				return inModule(imp, "ingest", "store", "schema", "query", "api", "server", "hotindex") ||
					strings.HasPrefix(imp, "github.com/apache/arrow-go")
			},
		},
		{
			name: "the chain model and decoders do no I/O",
			from: func(p string) bool { return under(p, "chain") },
			bad: func(imp string) bool {
				return imp == "net" || imp == "net/http" || imp == "os" || imp == "io/fs" || imp == "database/sql"
			},
		},
		{
			// Readers take store.Querier; Arrow is the write side's
			// (store/arrowstore), HTTP the server's.
			name: "the read side links neither Arrow nor fasthttp",
			from: func(p string) bool {
				return under(p, "api", "query", "hotindex", "asset", "auth", "checkpoint", "schema", "chain") || p == "store"
			},
			deps: true,
			bad: func(imp string) bool {
				return strings.HasPrefix(imp, "github.com/apache/arrow-go") || strings.HasPrefix(imp, "github.com/valyala/fasthttp")
			},
		},
		{
			// The benchmarks and their PostgreSQL reference run from
			// cmd/dasch-bench.
			name: "the server binary links no benchmark code and no PostgreSQL driver",
			from: func(p string) bool { return p == "cmd/dasch" },
			deps: true,
			bad: func(imp string) bool {
				return inModule(imp, "bench") || strings.HasPrefix(imp, "github.com/jackc/") ||
					strings.HasPrefix(imp, "github.com/lib/pq")
			},
		},
		{
			name: "nothing but bench/ and its commands imports bench/",
			from: func(p string) bool { return !under(p, "bench", "cmd/dasch-bench") },
			bad:  func(imp string) bool { return inModule(imp, "bench") },
		},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			for _, v := range violations(pkgs, r.from, r.deps, r.bad) {
				t.Error(v)
			}
		})
	}
}

// TestRulesBite checks the rule helpers against a made-up package set, so a
// rule that can never match is caught.
func TestRulesBite(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: module + "/query/x", Imports: []string{module + "/ingest/y", "fmt"}},
		{ImportPath: module + "/ingest/z", Imports: []string{module + "/ingest/y"}},
	}
	got := violations(pkgs, func(p string) bool { return !under(p, "ingest") }, false,
		func(imp string) bool { return inModule(imp, "ingest") })
	if len(got) != 1 || got[0] != "query/x -> "+module+"/ingest/y" {
		t.Fatalf("violations = %q", got)
	}
}
