// Package pgref runs a throwaway PostgreSQL server for benchmarks that
// compare dasch with a PostgreSQL-backed indexer in the same run: a fresh
// cluster in a temporary directory, listening on 127.0.0.1 only, removed on
// Stop.
package pgref

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dasch-labs/dasch/internal/tempdir"
)

// DefaultBinDir is where Debian's postgresql-15 package installs the server.
const DefaultBinDir = "/usr/lib/postgresql/15/bin"

// InstallHint tells a person how to get the reference server.
const InstallHint = "install PostgreSQL 15 with `apt-get install -y postgresql-15` (Debian/Ubuntu), " +
	"or set DASCH_PG_BIN to the directory holding initdb and postgres"

// ErrNotInstalled marks a machine without the PostgreSQL server binaries.
var ErrNotInstalled = errors.New("postgresql server not installed")

// Options tune the reference server.
type Options struct {
	// BinDir holds initdb and postgres; empty means FindBinDir().
	BinDir string
	// Settings are postgresql.conf parameters passed on the command line.
	Settings map[string]string
	// StartTimeout bounds initdb plus start-up. Default 2 minutes.
	StartTimeout time.Duration
}

// Server is a running reference cluster.
type Server struct {
	dir    *tempdir.Dir // holds data and log; nil once removed
	port   int
	proc   *os.Process
	exited chan error
	log    string
	// Removed lists the directories of earlier servers whose process
	// died without removing them, removed by Start.
	Removed []string
}

// FindBinDir locates the server binaries: $DASCH_PG_BIN, DefaultBinDir, or
// `pg_config --bindir`. It fails with ErrNotInstalled and InstallHint.
func FindBinDir() (string, error) {
	var cands []string
	if d := os.Getenv("DASCH_PG_BIN"); d != "" {
		cands = append(cands, d)
	}
	cands = append(cands, DefaultBinDir)
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		cands = append(cands, strings.TrimSpace(string(out)))
	}
	for _, d := range cands {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("%w (looked in %s): %s", ErrNotInstalled, strings.Join(cands, ", "), InstallHint)
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Start creates a cluster in a new temporary directory and starts it on a
// free loopback port. As root, initdb and postgres run as the "postgres"
// user (or "nobody"), since PostgreSQL refuses to run as root.
func Start(ctx context.Context, opts Options) (*Server, error) {
	bin := opts.BinDir
	if bin == "" {
		var err error
		if bin, err = FindBinDir(); err != nil {
			return nil, err
		}
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()

	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	dir, removed, err := tempdir.Make("dasch-pgref-*")
	if err != nil {
		return nil, fmt.Errorf("pgref: %w", err)
	}
	root := dir.Path
	s := &Server{dir: dir, log: filepath.Join(root, "postgres.log"), Removed: removed}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	data := filepath.Join(root, "data")
	if cred != nil {
		if err := os.Chown(root, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, fmt.Errorf("pgref: hand %s to the server user: %w", root, err)
		}
	}

	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.Dir = root
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgref: initdb: %w: %s", err, tail(out))
	}

	if s.port, err = freePort(); err != nil {
		return nil, err
	}
	args := []string{"-D", data,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "port=" + strconv.Itoa(s.port),
		"-c", "unix_socket_directories=",
	}
	keys := make([]string, 0, len(opts.Settings))
	for k := range opts.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-c", k+"="+opts.Settings[k])
	}
	logf, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	if err := s.spawn(filepath.Join(bin, "postgres"), args, root, logf, cred); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

// spawn starts postgres from a goroutine that keeps its OS thread until the
// server exits: the parent-death signal is tied to the spawning thread, so
// it then fires only when this process dies, which stops an orphaned server.
func (s *Server) spawn(path string, args []string, dir string, logf *os.File, cred *syscall.Credential) error {
	started := make(chan error, 1)
	s.exited = make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		cmd := exec.Command(path, args...)
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT}
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("pgref: start postgres: %w", err)
			runtime.UnlockOSThread()
			return
		}
		s.proc = cmd.Process
		started <- nil
		s.exited <- cmd.Wait()
		runtime.UnlockOSThread()
	}()
	return <-started
}

func (s *Server) waitReady(ctx context.Context) error {
	for {
		c, err := pgx.Connect(ctx, s.DSN())
		if err == nil {
			err = c.Ping(ctx)
			c.Close(context.Background())
			if err == nil {
				return nil
			}
		}
		select {
		case e := <-s.exited:
			s.exited <- e
			return fmt.Errorf("pgref: postgres exited during start-up (%v): %s", e, s.LogTail())
		case <-ctx.Done():
			return fmt.Errorf("pgref: postgres not ready: %w (last error: %v): %s", ctx.Err(), err, s.LogTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// DSN is the connection string of the superuser on the default database.
func (s *Server) DSN() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// PID is the postmaster's process id, 0 once stopped.
func (s *Server) PID() int {
	if s.proc == nil {
		return 0
	}
	return s.proc.Pid
}

// LogTail is the end of the server log, for error reports.
func (s *Server) LogTail() string {
	b, _ := os.ReadFile(s.log)
	return tail(b)
}

// Stop shuts the server down (fast mode: running queries are cancelled)
// and removes its directory. It is safe to call more than once.
func (s *Server) Stop() error {
	var err error
	if s.proc != nil {
		_ = s.proc.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			_ = s.proc.Kill()
			<-s.exited
			err = errors.New("pgref: postgres ignored fast shutdown and was killed")
		}
		s.proc = nil
	}
	if s.dir != nil {
		if e := s.dir.Remove(); e != nil && err == nil {
			err = e
		}
		s.dir = nil
	}
	return err
}

// serverCredential is who runs the server: nil (ourselves) unless we are
// root, else the postgres user, else nobody.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 == nil && err2 == nil {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("pgref: running as root and no unprivileged user (postgres, nobody) to run the server as")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgref: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
