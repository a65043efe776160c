package chserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dasch-labs/dasch/store/chdb"
)

// ConfigDir is where, inside the data directory, the generated
// configuration is written at every start.
const ConfigDir = ".dasch-server"

// Options tune Run.
type Options struct {
	// LibPath is libchdb.so; empty means chdb.DefaultLibPath().
	LibPath string
	// LogLevel is the engine's (error, warning, information, debug);
	// empty means warning.
	LogLevel string
	Logger   *slog.Logger
	// Ready, if set, is called once the native port accepts connections.
	Ready func()
}

// Run serves c until ctx ends, then stops the listeners and the engine.
// It takes the process's one engine.
func Run(ctx context.Context, c Config, opts Options) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := c.CheckPorts(); err != nil {
		return err
	}
	if opts.LogLevel == "" {
		opts.LogLevel = "warning"
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if c.TLS != nil {
		tp, err := c.listenTLS(log)
		if err != nil {
			return err
		}
		tp.serve()
		defer tp.close()
	}
	done := make(chan struct{})
	go func() {
		if waitListening(ctx, done, c.probeAddr()) {
			attrs := []any{"native", c.TCPPort, "http", c.HTTPPort, "listen", c.listen(), "dir", c.Dir}
			if c.TLS != nil {
				attrs = append(attrs, "native_tls", c.TLS.Port)
			}
			if c.Cluster != nil {
				attrs = append(attrs, "cluster", c.Cluster.Name)
			}
			log.Info("clickhouse server ready", attrs...)
			if opts.Ready != nil {
				opts.Ready()
			}
		}
	}()
	err := chdb.Serve(ctx, chdb.ServeOptions{LibPath: opts.LibPath, Dir: c.Dir, Config: func(dir string) (string, error) {
		return c.Write(filepath.Join(dir, ConfigDir))
	}, LogLevel: opts.LogLevel})
	close(done)
	if err != nil {
		return err
	}
	log.Info("clickhouse server stopped", "dir", c.Dir)
	return nil
}

// probeAddr is where to check that the native port is up: a wildcard
// listen address is reached on loopback.
func (c *Config) probeAddr() string {
	h := c.listen()[0]
	if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
		if ip.To4() != nil {
			h = "127.0.0.1"
		} else {
			h = "::1"
		}
	}
	return net.JoinHostPort(h, strconv.Itoa(c.TCPPort))
}

// waitListening dials addr until it answers, the server ends (done) or ctx
// ends; it reports whether it answered.
func waitListening(ctx context.Context, done <-chan struct{}, addr string) bool {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		cn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			cn.Close()
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-done:
			return false
		case <-t.C:
		}
	}
}

// ErrPort marks a port another process holds.
var ErrPort = errors.New("port in use")

// CheckPorts fails with ErrPort when a port of c is taken, before the
// engine starts: the engine itself reports it only in its log.
func (c *Config) CheckPorts() error {
	ports := []int{c.TCPPort, c.HTTPPort}
	if c.TLS != nil {
		ports = append(ports, c.TLS.Port)
	}
	for _, h := range c.listen() {
		for _, p := range ports {
			l, err := net.Listen("tcp", net.JoinHostPort(h, strconv.Itoa(p)))
			if err != nil {
				return fmt.Errorf("clickhouse server: %s:%d: %w (%v)", h, p, ErrPort, err)
			}
			l.Close()
		}
	}
	return nil
}
