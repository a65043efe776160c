package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
)

// benchBin holds the suites, so that this binary links neither them nor
// the PostgreSQL driver of their reference.
const benchBin = "dasch-bench"

// runBench runs dasch-bench with the arguments as they are, its output and
// exit status being the command's.
func runBench(_ context.Context, e *env, args []string) error {
	path, err := findBench()
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.stdout, e.stderr
	// A suite stops on SIGINT or SIGTERM and removes what it started (the
	// PostgreSQL reference among them): pass the signal on and wait for it
	// rather than exit first.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return exitCode(128 + int(ws.Signal()))
		}
		return exitCode(ee.ExitCode())
	}
	return err
}

// findBench finds dasch-bench beside this executable, as make build
// leaves it, or else on PATH.
func findBench() (string, error) {
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), benchBin)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(benchBin); err == nil {
		return p, nil
	}
	dir := "the directory of dasch"
	if self != "" {
		dir = filepath.Dir(self)
	}
	return "", fmt.Errorf("the suites are in a separate binary, %s, not found beside this one or on PATH: build it with `make build` (bin/%s beside bin/dasch) or `go build -o %s/ ./cmd/%s`", benchBin, benchBin, dir, benchBin)
}
