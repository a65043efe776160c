package chserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"
)

// The engine's command-line entry starts only its plain TCP and HTTP
// listeners (SYSTEM START LISTEN TCP SECURE is refused there), so the TLS
// native port is served here: TLS is terminated in this process and each
// connection is carried to the plain native port on loopback. The native
// protocol inside is untouched, so clients with secure=true see a
// ClickHouse TLS port.

// tlsPort is the secure native listener of a running server.
type tlsPort struct {
	lns    []net.Listener
	target string
	log    *slog.Logger
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// listenTLS loads the certificate and listens on the secure port of every
// listen address; the listeners accept once serve runs.
func (c *Config) listenTLS(log *slog.Logger) (*tlsPort, error) {
	cert, err := tls.LoadX509KeyPair(c.TLS.CertFile, c.TLS.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("clickhouse server: TLS certificate %s, key %s: %w", c.TLS.CertFile, c.TLS.KeyFile, err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	p := &tlsPort{target: c.probeAddr(), log: log, conns: map[net.Conn]struct{}{}}
	for _, h := range c.listen() {
		ln, err := net.Listen("tcp", net.JoinHostPort(h, strconv.Itoa(c.TLS.Port)))
		if err != nil {
			p.close()
			return nil, fmt.Errorf("clickhouse server: %s:%d: %w (%v)", h, c.TLS.Port, ErrPort, err)
		}
		p.lns = append(p.lns, tls.NewListener(ln, cfg))
	}
	return p, nil
}

func (p *tlsPort) serve() {
	for _, ln := range p.lns {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for {
				cn, err := ln.Accept()
				if err != nil {
					if !errors.Is(err, net.ErrClosed) {
						p.log.Warn("clickhouse server: TLS accept", "err", err)
					}
					return
				}
				if !p.track(cn) {
					cn.Close()
					return
				}
				p.wg.Add(1)
				go func() {
					defer p.wg.Done()
					defer p.untrack(cn)
					p.forward(cn)
				}()
			}
		}()
	}
}

// forward carries one client connection to the plain native port.
func (p *tlsPort) forward(client net.Conn) {
	d := net.Dialer{Timeout: 10 * time.Second}
	// The handshake and the client's hello happen here, bounded, rather
	// than on first read.
	_ = client.SetDeadline(time.Now().Add(10 * time.Second))
	if tc, ok := client.(*tls.Conn); ok {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := tc.HandshakeContext(ctx)
		cancel()
		if err != nil {
			p.log.Debug("clickhouse server: TLS handshake", "remote", client.RemoteAddr(), "err", err)
			return
		}
	}
	// Forwarded connections reach the engine from loopback, where the
	// engine user logs in without a password: a TLS client must not log
	// in as that user, so the hello is read and checked first.
	hello, user, err := readHello(client)
	if err != nil {
		p.log.Debug("clickhouse server: TLS client hello", "remote", client.RemoteAddr(), "err", err)
		return
	}
	if user == "" || user == EngineUser {
		p.log.Warn("clickhouse server: TLS login as the engine user refused", "remote", client.RemoteAddr())
		return
	}
	_ = client.SetDeadline(time.Time{})
	server, err := d.Dial("tcp", p.target)
	if err != nil {
		p.log.Warn("clickhouse server: TLS port cannot reach the native port", "target", p.target, "err", err)
		return
	}
	if !p.track(server) {
		server.Close()
		return
	}
	defer p.untrack(server)
	if _, err := server.Write(hello); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(server, client)
		if tc, ok := server.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		close(done)
	}()
	_, _ = io.Copy(client, server)
	client.Close()
	<-done
}

func (p *tlsPort) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *tlsPort) untrack(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// close stops the listeners and every forwarded connection, and waits.
func (p *tlsPort) close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	for _, ln := range p.lns {
		ln.Close()
	}
	p.wg.Wait()
}
