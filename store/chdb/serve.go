package chdb

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// ServeOptions run the engine as a ClickHouse server.
type ServeOptions struct {
	// LibPath is libchdb.so; empty means DefaultLibPath().
	LibPath string
	// Allocator is as in Options.
	Allocator string
	// Dir is the data directory, created if missing and locked for the
	// life of the server as Open locks it.
	Dir string
	// Config writes the ClickHouse server configuration for the data
	// directory (its absolute path), once the directory is locked, and
	// returns the file's path: its listen_host, tcp_port, http_port (and
	// tcp_port_secure with openSSL), users_config and remote_servers are
	// what the listeners take.
	Config func(dir string) (string, error)
	// LogLevel is the engine's log level (warning, information, debug...).
	LogLevel string
}

// Serve runs ClickHouse's own native and HTTP servers on a data directory
// until ctx ends, then stops them and returns. The engine serves through
// its command-line entry (the one clickhouse-local has), the only one
// that may start listeners: the session it runs starts them and then
// blocks reading a pipe that this side closes when ctx ends. The read is
// the client side of an INSERT (FROM INFILE), which needs no grant to read
// files, so the session's user is given none. Serve takes
// the process's one engine, so nothing else may Open in this process,
// before or after.
func Serve(ctx context.Context, opts ServeOptions) error {
	if opts.Dir == "" || opts.Config == nil {
		return errors.New("clickhouse server: a data directory and a configuration file are needed")
	}
	abs, err := filepath.Abs(opts.Dir)
	if err != nil {
		return fmt.Errorf("clickhouse server %s: %w", opts.Dir, err)
	}
	if opts.LibPath == "" {
		opts.LibPath = DefaultLibPath()
	}
	engine.mu.Lock()
	if engine.shutdown || engine.dir != "" {
		engine.mu.Unlock()
		return errors.New("clickhouse server: the engine of this process is already in use")
	}
	if err := loadLocked(opts.LibPath, opts.Allocator); err != nil {
		engine.mu.Unlock()
		return err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		engine.mu.Unlock()
		return fmt.Errorf("clickhouse server: create %s: %w", abs, err)
	}
	lock, err := lockDir(abs)
	if err != nil {
		engine.mu.Unlock()
		return err
	}
	// The engine stays taken after Serve: its command-line run leaves
	// global state that a later Open must not meet.
	engine.dir, engine.shutdown = abs, true
	engine.mu.Unlock()
	defer lock.Close()
	conf, err := opts.Config(abs)
	if err != nil {
		return err
	}

	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("clickhouse server: pipe: %w", err)
	}
	defer r.Close()
	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		w.Close()
	}()
	defer close(stop)

	block := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	args := []string{
		"clickhouse",
		"--config-file=" + conf,
		"--path=" + abs,
		"--multiquery",
		"--log-level=" + opts.LogLevel,
		"--query=SYSTEM START LISTEN TCP; SYSTEM START LISTEN HTTP; " +
			"INSERT INTO FUNCTION null('line String') FROM INFILE '" + block + "' FORMAT LineAsString",
	}
	argv, free := cArgs(args)
	defer free()
	res := C.dasch_query_cmdline(C.int(len(args)), argv)
	if res == nil {
		return errors.New("clickhouse server: the engine returned no result")
	}
	defer C.dasch_destroy_result(res)
	if e := C.dasch_result_error(res); e != nil {
		if msg := C.GoString(e); msg != "" {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("clickhouse server: %s", cleanMsg(msg))
		}
	}
	if ctx.Err() == nil {
		return errors.New("clickhouse server: stopped without being asked")
	}
	return nil
}
