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

// These tests run the real binary, as a user would, alone and as
// `dasch bench` runs it: dasch is built beside it, as make build does.

var bin, daschBin string

func TestMain(m *testing.M) {
	dir, _, err := tempdir.Make("dasch-bin-*")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir.Path, "dasch-bench")
	daschBin = filepath.Join(dir.Path, "dasch")
	for _, b := range [][2]string{{bin, "."}, {daschBin, "../dasch"}} {
		out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b[1], err, out)
			os.Exit(1)
		}
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
		for _, c := range [][]string{
			append([]string{bin}, tc.args...),
			append([]string{daschBin, "bench"}, tc.args...),
		} {
			_, errOut, err := run(t, c[0], c[1:]...)
			if err == nil || !strings.Contains(errOut, tc.want) {
				t.Errorf("%v: err=%v stderr=%q, want %q", c, err, errOut, tc.want)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 3 {
				t.Errorf("%v: error should be short:\n%s", c, errOut)
			}
		}
	}
}

func TestInsertSuite(t *testing.T) {
	for _, c := range [][]string{{bin}, {daschBin, "bench"}} {
		c = append(c, "--suite", "insert", "--rows", "2000", "--batch", "1000")
		out, errOut, err := run(t, c[0], c[1:]...)
		if err != nil {
			t.Fatalf("%v: %v\n%s\n%s", c, err, out, errOut)
		}
		for _, want := range []string{"bench: 2000 synthetic accounts, batches of 1000", "raw insert", "pipeline / raw:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", c, want, out)
			}
		}
	}
}
