package main_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The server binary must not link the benchmark suites or the PostgreSQL
// driver of their reference: those live in cmd/dasch-bench.
func TestNoBenchDeps(t *testing.T) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	cmd := exec.Command("go", "list", "-deps", "./cmd/dasch")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps ./cmd/dasch: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps ./cmd/dasch: %v", err)
	}
	const bench = "github.com/dasch-labs/dasch/bench"
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps ./cmd/dasch listed nothing")
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/jackc/") || p == bench || strings.HasPrefix(p, bench+"/") {
			t.Errorf("cmd/dasch depends on %s", p)
		}
	}
}
