// Package chtest gives tests real ClickHouse servers: the test binary runs
// itself again as a child process that serves a temporary data directory
// from the embedded engine (internal/chserve, what `dasch clickhouse`
// runs), on free loopback ports. A child ends with its test, or with the
// test binary however that ends (it watches a pipe from its parent).
package chtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chserve"
	"github.com/dasch-labs/dasch/internal/tempdir"
)

// childEnv carries a child's configuration (JSON of chserve.Config); a
// process started with it serves instead of running tests.
const childEnv = "DASCH_CHTEST_SERVE"

func init() {
	if v := os.Getenv(childEnv); v != "" {
		os.Exit(child(v))
	}
}

// child serves the configuration in v until its standard input closes.
func child(v string) int {
	var c chserve.Config
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		fmt.Fprintf(os.Stderr, "chtest child: %v\n", err)
		return 2
	}
	parent, err := chserve.Parent()
	if err != nil {
		fmt.Fprintf(os.Stderr, "chtest child: %v\n", err)
		return 2
	}
	ctx, cancel := chserve.UntilClosed(context.Background(), parent)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if err := chserve.Run(ctx, c, chserve.Options{LogLevel: "error", Logger: log}); err != nil {
		fmt.Fprintf(os.Stderr, "chtest child: %v\n", err)
		return 1
	}
	return 0
}

// User is the login with the write profile every server has; Analyst has
// the read-only profile.
const (
	User    = "dasch"
	Analyst = "analyst"
)

// Options shape a server.
type Options struct {
	// TLS adds a secure native port with this certificate.
	TLS *chserve.TLS
	// Cluster names the cluster; its shards are filled in by StartCluster.
	Cluster *chserve.Cluster
	// ports are set by StartCluster, which must know them before starting,
	// and the passwords, which every server of a cluster shares.
	tcp, http              int
	password, analystPassw string
}

// Server is a running child server.
type Server struct {
	Dir               string
	TCPPort, HTTPPort int
	// Password is User's; AnalystPassword is Analyst's.
	Password, AnalystPassword string
	TLS                       *chserve.TLS

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dir    *tempdir.Dir
	stderr *tail
	waited chan error
	once   sync.Once
	err    error
}

// DSN is the clickhouse:// URL of User, with params (k=v&...) appended.
func (s *Server) DSN(params string) string {
	return s.dsn(User, s.Password, s.TCPPort, params)
}

// AnalystDSN is the clickhouse:// URL of Analyst.
func (s *Server) AnalystDSN(params string) string {
	return s.dsn(Analyst, s.AnalystPassword, s.TCPPort, params)
}

// TLSDSN is User's URL on the secure port, secure=true.
func (s *Server) TLSDSN(params string) string {
	if s.TLS == nil {
		return ""
	}
	p := "secure=true&skip_verify=true"
	if params != "" {
		p += "&" + params
	}
	return s.dsn(User, s.Password, s.TLS.Port, p)
}

func (s *Server) dsn(user, pass string, port int, params string) string {
	u := url.URL{Scheme: "clickhouse", User: url.UserPassword(user, pass), Host: "127.0.0.1:" + strconv.Itoa(port), Path: "/default", RawQuery: params}
	return u.String()
}

// HTTPURL is the HTTP interface's base URL.
func (s *Server) HTTPURL() string { return "http://127.0.0.1:" + strconv.Itoa(s.HTTPPort) }

// Start runs a server for t, stopped when t ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := StartProcess(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("stop clickhouse server: %v", err)
		}
	})
	return s
}

// StartProcess runs a server that lives until Stop or the end of this
// process.
func StartProcess(opts Options) (*Server, error) {
	var err error
	for range 3 {
		var s *Server
		if s, err = start(opts); err == nil {
			return s, nil
		}
		// A free port taken between the probe and the child's bind: try
		// others, unless the ports were given.
		if !errors.Is(err, errPortRace) || opts.tcp != 0 {
			break
		}
	}
	return nil, err
}

var errPortRace = errors.New("port taken")

func start(opts Options) (*Server, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("clickhouse test server: %w", err)
	}
	dir, _, err := tempdir.Make("dasch-chtest-*")
	if err != nil {
		return nil, fmt.Errorf("clickhouse test server: %w", err)
	}
	s := &Server{Dir: dir.Path, dir: dir, Password: opts.password, AnalystPassword: opts.analystPassw, TLS: opts.TLS}
	if s.Password == "" {
		s.Password, s.AnalystPassword = secret(), secret()
	}
	s.TCPPort, s.HTTPPort = opts.tcp, opts.http
	if s.TCPPort == 0 {
		ports, err := FreePorts(2)
		if err != nil {
			dir.Remove()
			return nil, err
		}
		s.TCPPort, s.HTTPPort = ports[0], ports[1]
	}
	c := chserve.Config{
		Dir: dir.Path, TCPPort: s.TCPPort, HTTPPort: s.HTTPPort, TLS: opts.TLS, Cluster: opts.Cluster,
		Users: []chserve.User{
			{Name: User, Password: s.Password, Profile: chserve.ProfileWrite},
			{Name: Analyst, Password: s.AnalystPassword, Profile: chserve.ProfileReadOnly},
		},
	}
	js, err := json.Marshal(c)
	if err != nil {
		dir.Remove()
		return nil, err
	}
	s.cmd = exec.Command(exe)
	s.cmd.Env = append(os.Environ(), childEnv+"="+string(js))
	s.stderr = &tail{}
	s.cmd.Stdout, s.cmd.Stderr = s.stderr, s.stderr
	// The child stops when this pipe closes: at Stop, or when this process
	// ends however it ends.
	s.stdin, err = s.cmd.StdinPipe()
	if err != nil {
		dir.Remove()
		return nil, err
	}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		dir.Remove()
		return nil, fmt.Errorf("clickhouse test server: %w", err)
	}
	s.waited = make(chan error, 1)
	go func() { s.waited <- s.cmd.Wait() }()
	if err := s.waitReady(60 * time.Second); err != nil {
		_ = s.Stop()
		if strings.Contains(err.Error(), chserve.ErrPort.Error()) {
			return nil, fmt.Errorf("%w: %v", errPortRace, err)
		}
		return nil, err
	}
	return s, nil
}

// waitReady polls the HTTP interface until it answers, the child exits or
// the wait runs out.
func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(s.HTTPURL() + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-s.waited:
			s.waited <- err
			return fmt.Errorf("clickhouse test server exited before it was ready (%v): %s", err, s.stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("clickhouse test server not ready after %s: %s", limit, s.stderr.String())
		}
	}
}

// Stop ends the server and removes its directory.
func (s *Server) Stop() error {
	s.once.Do(func() {
		s.stdin.Close()
		select {
		case err := <-s.waited:
			if err != nil {
				s.err = fmt.Errorf("clickhouse test server: %v: %s", err, s.stderr.String())
			}
		case <-time.After(30 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.waited
			s.err = fmt.Errorf("clickhouse test server did not stop within 30s: %s", s.stderr.String())
		}
		s.dir.Remove()
	})
	return s.err
}

// Output is what the child wrote (its last lines).
func (s *Server) Output() string { return s.stderr.String() }

// FreePorts returns n loopback ports free at the time of the call.
func FreePorts(n int) ([]int, error) {
	ls := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func secret() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// tail keeps the last lines a child wrote, for error messages.
type tail struct {
	mu    sync.Mutex
	lines []string
	part  string
}

const tailLines = 40

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	got := strings.Split(t.part+string(p), "\n")
	t.part = got[len(got)-1]
	if len(t.part) > 4096 {
		t.part = t.part[len(t.part)-4096:]
	}
	t.lines = append(t.lines, got[:len(got)-1]...)
	if len(t.lines) > tailLines {
		t.lines = t.lines[len(t.lines)-tailLines:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(append(append([]string(nil), t.lines...), t.part), "\n")
}
