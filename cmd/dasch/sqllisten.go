package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dasch-labs/dasch/internal/chserve"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/server"
)

// `dasch serve --sql-listen` on embedded:DIR: the engine starts listeners
// only from its command-line entry, which takes a whole process (its
// standard input and output, its one engine), so a child process of this
// binary runs ClickHouse's server on DIR and serve reaches the same
// tables through it over loopback, as a clickhouse:// store.

// sqlChildEnv marks a process started to run the SQL server; its
// configuration comes on standard input, whose end stops it.
const sqlChildEnv = "DASCH_SQL_SERVER_CHILD"

// sqlWriteUser is serve's own login to the child: loopback only, its
// password made afresh at every start and never written but hashed.
const sqlWriteUser = "dasch_serve"

func init() {
	if os.Getenv(sqlChildEnv) == "1" {
		os.Exit(sqlChild())
	}
}

// sqlChildInput is what the child reads on its standard input, one line.
type sqlChildInput struct {
	Config   chserve.Config
	LogLevel string
}

// sqlChild serves the configuration read from standard input until that
// input ends (the parent stopped or died) or SIGTERM.
func sqlChild() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	parent, err := chserve.Parent()
	if err != nil {
		log.Error("sql server", "err", err)
		return 2
	}
	line, err := parent.ReadBytes('\n')
	if err != nil {
		log.Error("sql server: no configuration", "err", err)
		return 2
	}
	var in sqlChildInput
	if err := json.Unmarshal(line, &in); err != nil {
		log.Error("sql server: configuration", "err", err)
		return 2
	}
	sctx, stop := server.SignalContext(context.Background())
	defer stop()
	ctx, cancel := chserve.UntilClosed(sctx, parent)
	defer cancel()
	if err := chserve.Run(ctx, in.Config, chserve.Options{LogLevel: in.LogLevel, Logger: log}); err != nil {
		log.Error("sql server", "err", err)
		return 1
	}
	return 0
}

// sqlFlags are serve's --sql-* flags.
type sqlFlags struct {
	listen, httpListen, user *string
	logLevel                 *string
	maxSeconds               *int
	maxMemMB, maxRows        *int64
	maxResultMB              *int64
}

func addSQLFlags(fs *flag.FlagSet) *sqlFlags {
	d := chserve.ReadOnlyLimits
	return &sqlFlags{
		listen:      fs.String("sql-listen", "", "with --store embedded:DIR: also serve the store read-only to ClickHouse clients, the native protocol on this HOST:PORT (the analyst login: --sql-user, password $DASCH_SQL_PASSWORD)"),
		httpListen:  fs.String("sql-http-listen", "", "the ClickHouse HTTP interface of --sql-listen on HOST:PORT, the same host (default: port 8123 of that host)"),
		user:        fs.String("sql-user", "analyst", "the analyst login of --sql-listen"),
		logLevel:    fs.String("sql-log-level", "error", "log level of the SQL server's engine: fatal, error, warning, information (every refused analyst query is an error with its stack)"),
		maxSeconds:  fs.Int("sql-max-execution-time", d.MaxExecutionSeconds, "seconds an analyst query may run (max_execution_time)"),
		maxMemMB:    fs.Int64("sql-max-memory-mb", d.MaxMemoryBytes>>20, "MiB an analyst query may use (max_memory_usage)"),
		maxRows:     fs.Int64("sql-max-result-rows", d.MaxResultRows, "rows an analyst query may return (max_result_rows)"),
		maxResultMB: fs.Int64("sql-max-result-mb", d.MaxResultBytes>>20, "MiB an analyst query may return (max_result_bytes)"),
	}
}

// sqlNames are the flags that apply with --sql-listen only.
var sqlNames = []string{"sql-http-listen", "sql-user", "sql-log-level", "sql-max-execution-time", "sql-max-memory-mb", "sql-max-result-rows", "sql-max-result-mb"}

// config checks the flags against the store URL and builds the child's
// configuration; it returns the loopback address serve dials.
func (f *sqlFlags) config(fs *flag.FlagSet, storeURL, password string, engineMemory int64) (chserve.Config, string, error) {
	if *f.listen == "" {
		for _, n := range sqlNames {
			if set(fs, n) {
				return chserve.Config{}, "", usagef("--%s applies with --sql-listen only", n)
			}
		}
		return chserve.Config{}, "", nil
	}
	dir, ok := strings.CutPrefix(storeURL, "embedded:")
	if !ok || dir == "" {
		return chserve.Config{}, "", usagef("--sql-listen serves an embedded:DIR store; a clickhouse:// store is a server already")
	}
	host, tcp, err := hostPort("--sql-listen", *f.listen)
	if err != nil {
		return chserve.Config{}, "", err
	}
	http := 8123
	if *f.httpListen != "" {
		h, p, err := hostPort("--sql-http-listen", *f.httpListen)
		if err != nil {
			return chserve.Config{}, "", err
		}
		if h != host {
			return chserve.Config{}, "", usagef("--sql-http-listen must be on the host of --sql-listen (%s), not %s", host, h)
		}
		http = p
	}
	pass := os.Getenv("DASCH_SQL_PASSWORD")
	if pass == "" {
		return chserve.Config{}, "", usagef("--sql-listen needs the analyst password in $DASCH_SQL_PASSWORD")
	}
	for _, v := range []struct {
		name string
		n    int64
	}{{"sql-max-execution-time", int64(*f.maxSeconds)}, {"sql-max-memory-mb", *f.maxMemMB}, {"sql-max-result-rows", *f.maxRows}, {"sql-max-result-mb", *f.maxResultMB}} {
		if v.n <= 0 {
			return chserve.Config{}, "", usagef("--%s must be positive", v.name)
		}
	}
	// serve dials loopback: a listener on one other address gets a
	// loopback one beside it, a wildcard covers loopback already.
	listen, dial := []string{host}, host
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return chserve.Config{}, "", usagef("--sql-listen: %q is not an IP address", host)
	case ip.IsUnspecified() && ip.To4() != nil:
		dial = "127.0.0.1"
	case ip.IsUnspecified():
		dial = "::1"
	case !ip.IsLoopback():
		listen, dial = append(listen, "127.0.0.1"), "127.0.0.1"
	}
	c := chserve.Config{
		Dir: dir, Listen: listen, TCPPort: tcp, HTTPPort: http,
		Users: []chserve.User{
			{Name: sqlWriteUser, Password: password, Profile: chserve.ProfileWrite},
			{Name: *f.user, Password: pass, Profile: chserve.ProfileReadOnly},
		},
		ReadOnly: chserve.Limits{
			MaxExecutionSeconds: *f.maxSeconds,
			MaxMemoryBytes:      *f.maxMemMB << 20,
			MaxResultRows:       *f.maxRows,
			MaxResultBytes:      *f.maxResultMB << 20,
		},
		LoopbackUsers:   []string{sqlWriteUser},
		Hidden:          readOnlyHidden(),
		MaxServerMemory: engineMemory,
	}
	if err := c.Validate(); err != nil {
		return chserve.Config{}, "", usagef("--sql-listen: %v", err)
	}
	return c, net.JoinHostPort(dial, strconv.Itoa(tcp)), nil
}

func hostPort(flagName, v string) (string, int, error) {
	h, p, err := net.SplitHostPort(v)
	if err != nil {
		return "", 0, usagef("%s %q: want HOST:PORT", flagName, v)
	}
	n, err := strconv.Atoi(p)
	if err != nil || n <= 0 || n > 65535 {
		return "", 0, usagef("%s %q: port out of range", flagName, v)
	}
	if h == "" {
		h = "127.0.0.1"
	}
	return h, n, nil
}

// sqlServer is the running child.
type sqlServer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}
	err   error // once done: how it ended
	once  sync.Once
}

// startSQL starts the child on c and waits until its native port answers
// at dial; it returns the store URL of serve's login.
func startSQL(ctx context.Context, e *env, c chserve.Config, logLevel, dial string) (*sqlServer, string, error) {
	if err := c.CheckPorts(); err != nil {
		return nil, "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, "", fmt.Errorf("sql server: %w", err)
	}
	js, err := json.Marshal(sqlChildInput{Config: c, LogLevel: logLevel})
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), sqlChildEnv+"=1")
	cmd.Stderr = e.stderr
	// A Ctrl-C on the terminal reaches serve only, which stops the child
	// once it no longer needs the store.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("sql server: %w", err)
	}
	s := &sqlServer{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	if _, err := stdin.Write(append(js, '\n')); err != nil {
		s.stop()
		return nil, "", fmt.Errorf("sql server: %w", err)
	}
	wait := time.NewTimer(2 * time.Minute)
	defer wait.Stop()
	for {
		cn, err := net.DialTimeout("tcp", dial, time.Second)
		if err == nil {
			cn.Close()
			break
		}
		select {
		case <-s.done:
			return nil, "", fmt.Errorf("sql server on %s exited before it listened: %v", c.Dir, s.err)
		case <-ctx.Done():
			s.stop()
			return nil, "", ctx.Err()
		case <-wait.C:
			s.stop()
			return nil, "", fmt.Errorf("sql server on %s: native port %s not listening after 2m", c.Dir, dial)
		case <-time.After(50 * time.Millisecond):
		}
	}
	u := url.URL{Scheme: "clickhouse", User: url.UserPassword(c.Users[0].Name, c.Users[0].Password), Host: dial, Path: "/default"}
	return s, u.String(), nil
}

// watch calls fail if the child ends before stop.
func (s *sqlServer) watch(ctx context.Context, fail func(error)) {
	go func() {
		select {
		case <-ctx.Done():
		case <-s.done:
			if ctx.Err() == nil {
				fail(fmt.Errorf("sql server stopped: %v", s.err))
			}
		}
	}()
}

// stop ends the child's input, which stops its listeners and engine, and
// waits; a child that does not end in time is killed.
func (s *sqlServer) stop() error {
	var err error
	s.once.Do(func() {
		s.stdin.Close()
		select {
		case <-s.done:
			err = s.err
		case <-time.After(time.Minute):
			_ = s.cmd.Process.Kill()
			<-s.done
			err = errors.New("sql server: killed, not stopped within 1m")
		}
	})
	return err
}

// readOnlyHidden are the tables read-only logins may not read: the
// secret ones, and the statements other logins are running (serve's
// carry its callers' parameters).
func readOnlyHidden() []string { return append(schema.SecretTables(), "system.processes") }

// newSecret is a random password.
func newSecret() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// serveSQL starts the server of --sql-listen, if set, and returns the
// store URL serve opens (storeURL without it); stop ends the server,
// failed reports one that ended under serve, which cancel then stops.
func serveSQL(ctx context.Context, e *env, fs *flag.FlagSet, f *sqlFlags, storeURL string, cancel func()) (open string, stop func(), failed func() error, err error) {
	none := func() error { return nil }
	password, err := newSecret()
	if err != nil {
		return "", nil, nil, err
	}
	c, dial, err := f.config(fs, storeURL, password, e.engineMemory)
	if err != nil || dial == "" {
		return storeURL, func() {}, none, err
	}
	s, open, err := startSQL(ctx, e, c, *f.logLevel, dial)
	if err != nil {
		return "", nil, nil, err
	}
	var mu sync.Mutex
	var died error
	s.watch(ctx, func(err error) {
		e.log.Error("sql server ended; stopping", "err", err)
		mu.Lock()
		died = err
		mu.Unlock()
		cancel()
	})
	e.log.Info("serving SQL read-only", "native", net.JoinHostPort(c.Listen[0], strconv.Itoa(c.TCPPort)),
		"http", net.JoinHostPort(c.Listen[0], strconv.Itoa(c.HTTPPort)), "user", c.Users[1].Name, "dir", c.Dir)
	stop = func() {
		if err := s.stop(); err != nil {
			e.log.Warn("sql server stop", "err", err)
		}
	}
	failed = func() error {
		mu.Lock()
		defer mu.Unlock()
		return died
	}
	return open, stop, failed, nil
}
