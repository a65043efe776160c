package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dasch bench runs dasch-bench, here a stand-in on PATH (none is built
// beside the test's binary), with its arguments, output and exit status.
func TestBenchRunsDaschBench(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"args: $*\"\necho oops >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, "dasch-bench"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "bench", "--suite", "compressed", "--chunk", "0")
	cmd.Env = append(os.Environ(), "PATH="+dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit: %v, want status 3", err)
	}
	if got, want := stdout.String(), "args: --suite compressed --chunk 0\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := stderr.String(); got != "oops\n" {
		t.Errorf("stderr %q, want dasch-bench's alone", got)
	}
}

func TestBenchWithoutDaschBench(t *testing.T) {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "bench")
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	for _, want := range []string{"dasch-bench", "not found", "make build", "go build -o", "./cmd/dasch-bench"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
