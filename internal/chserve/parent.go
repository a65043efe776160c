package chserve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Parent is the standard input of a process that runs Run for a parent
// process, read on a copy of its descriptor: the engine takes descriptor
// 0 over.
func Parent() (*bufio.Reader, error) {
	fd, err := syscall.Dup(0)
	if err != nil {
		return nil, fmt.Errorf("clickhouse server: the parent's pipe: %w", err)
	}
	return bufio.NewReader(os.NewFile(uintptr(fd), "parent")), nil
}

// UntilClosed is ctx cancelled once parent ends: the parent closed the
// pipe, or died.
func UntilClosed(ctx context.Context, parent io.Reader) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		_, _ = io.Copy(io.Discard, parent)
		cancel()
	}()
	return ctx, cancel
}
