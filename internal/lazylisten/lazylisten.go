// Package lazylisten binds a server's TCP address once, on first use, so
// its Addr is known before it serves (a port 0 made concrete).
package lazylisten

import (
	"fmt"
	"net"
	"sync"
)

// Listener is an address to bind, bound at most once. Safe for
// concurrent use; the zero value is not usable (New).
type Listener struct {
	what, addr string
	mu         sync.Mutex
	ln         net.Listener
}

// New returns a listener of addr; what names the server in errors.
func New(what, addr string) *Listener { return &Listener{what: what, addr: addr} }

// Listen binds the address if it is not bound yet.
func (l *Listener) Listen() error {
	_, err := l.Bound()
	return err
}

// Bound binds the address if needed and returns the listener.
func (l *Listener) Bound() (net.Listener, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		return l.ln, nil
	}
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		return nil, fmt.Errorf("%s: listen %s: %w", l.what, l.addr, err)
	}
	l.ln = ln
	return ln, nil
}

// Addr is the bound address ("127.0.0.1:41234"), empty before Listen.
func (l *Listener) Addr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln == nil {
		return ""
	}
	return l.ln.Addr().String()
}
