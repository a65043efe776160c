// Package proc runs the processes the bench suites start (dasch serve):
// a free loopback port for them, the tail of their output for error
// reports, and a stop that waits for a clean exit.
package proc

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// FreeAddr is a loopback address whose port was free a moment ago.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Tail keeps the last few KiB a process wrote.
type Tail struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if t.b.Len() > 8<<10 {
		t.b.Next(t.b.Len() - 4<<10)
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b.Bytes()))
}

// Proc is a started process whose output goes to Out.
type Proc struct {
	Cmd  *exec.Cmd
	Out  *Tail
	done chan struct{}
	err  error // Wait's, once done is closed
	once sync.Once
	stop error
}

// Start starts cmd with its output in a Tail.
func Start(cmd *exec.Cmd) (*Proc, error) {
	p := &Proc{Cmd: cmd, Out: &Tail{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.Out, p.Out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	return p, nil
}

// Done is closed once the process exited; Err then says how.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err is Wait's error, valid once Done is closed.
func (p *Proc) Err() error { return p.err }

// Exited reports whether the process exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Stop sends SIGTERM and waits a minute for the exit, then kills it; the
// error says when it had to. Later calls return the first one's answer.
func (p *Proc) Stop() error {
	p.once.Do(func() {
		if p.Exited() {
			return
		}
		_ = p.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(time.Minute):
			_ = p.Cmd.Process.Kill()
			<-p.done
			p.stop = errors.New("it ignored SIGTERM and was killed")
		}
	})
	return p.stop
}
