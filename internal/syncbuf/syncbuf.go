// Package syncbuf is a bytes.Buffer safe to write from one goroutine (a
// logger, a child process's output) while another reads it, for tests.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects writes under a lock.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
