package chdb

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
	"unsafe"
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
// that may start listeners: its session starts them and then waits on
// its terminal for statements, and ends when that input ends. Serve takes
// the process's one engine and its standard input and output, so nothing
// else may Open in this process, before or after.
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
	lock, readOnly, err := lockDir(abs, false)
	if err == nil && readOnly {
		if lock != nil {
			lock.Close()
		}
		err = fmt.Errorf("clickhouse server: %s is not writable", abs)
	}
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

	// Run as a terminal session would: a non-interactive run installs an
	// error handler that aborts the process on any exception escaping a
	// connection's thread, as a native-protocol login with a wrong
	// password does. The engine takes a session as interactive when its
	// standard input is a terminal, so standard input and output become
	// a pseudo-terminal, whose output is discarded.
	term, err := openTerminal()
	if err != nil {
		return err
	}
	defer term.Close()

	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
			return
		}
		// The session reads the terminal once its statements ran: end
		// its input, again until it ends, as the line editor drops what
		// was typed before it took the terminal.
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			term.end()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	defer close(stop)

	args := []string{
		"clickhouse",
		"--config-file=" + conf,
		"--path=" + abs,
		"--interactive",
		"--multiquery",
		"--log-level=" + opts.LogLevel,
		"--query=SYSTEM START LISTEN TCP; SYSTEM START LISTEN HTTP",
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

// terminal is a pseudo-terminal on the standard input and output.
type terminal struct {
	master *os.File
}

func openTerminal() (*terminal, error) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, fmt.Errorf("clickhouse server: terminal: %w", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		return nil, fmt.Errorf("clickhouse server: terminal: unlock: %w", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		return nil, fmt.Errorf("clickhouse server: terminal: number: %w", e)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("clickhouse server: terminal: %w", err)
	}
	defer slave.Close()
	for _, fd := range []int{0, 1} {
		if err := syscall.Dup2(int(slave.Fd()), fd); err != nil {
			master.Close()
			return nil, fmt.Errorf("clickhouse server: terminal: %w", err)
		}
	}
	go func() { _, _ = io.Copy(io.Discard, master) }()
	return &terminal{master: master}, nil
}

// end types the end of input (Ctrl-D) into the terminal.
func (t *terminal) end() { _, _ = t.master.Write([]byte{4}) }

func (t *terminal) Close() error { return t.master.Close() }
