package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/tempdir"
)

// These tests run the real binary, as a user would.

var bin string

func TestMain(m *testing.M) {
	dir, _, err := tempdir.Make("dasch-bin-*")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir.Path, "dasch-bench")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	dir.Remove()
	os.Exit(code)
}

func run(t *testing.T, name string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--suite", "compressed", "--chunk", "0"}, "--chunk must be positive"},
		{[]string{"--suite", "compressed", "--part-chunks", "0"}, "--part-chunks and --chunk must be positive"},
	}
	for _, tc := range tests {
		_, errOut, err := run(t, bin, tc.args...)
		if err == nil || !strings.Contains(errOut, tc.want) {
			t.Errorf("dasch-bench %v: err=%v stderr=%q, want %q", tc.args, err, errOut, tc.want)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 3 {
			t.Errorf("dasch-bench %v: error should be short:\n%s", tc.args, errOut)
		}
	}
}

func TestInsertSuite(t *testing.T) {
	out, errOut, err := run(t, bin, "--suite", "insert", "--rows", "2000", "--batch", "1000")
	if err != nil {
		t.Fatalf("dasch-bench: %v\n%s\n%s", err, out, errOut)
	}
	for _, want := range []string{"bench: 2000 synthetic accounts, batches of 1000", "raw insert", "pipeline / raw:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
