// Package chserve runs a ClickHouse server from the pinned embedded engine
// (libchdb): it writes the server and users configuration for a data
// directory and serves the native and HTTP protocols until stopped. It is
// what `dasch clickhouse` runs and what tests start as a child process.
package chserve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Profiles a user may have.
const (
	// ProfileWrite may read, write and change the schema: what dasch
	// migrate, ingest and serve need.
	ProfileWrite = "write"
	// ProfileReadOnly may only read (readonly=2: settings may be sent,
	// within constraints), within the limits of ReadOnlyLimits.
	ProfileReadOnly = "readonly"
)

// EngineUser is the user the engine logs its own session in as, to start
// the listeners: no password, from 127.0.0.1 only, with no grant but
// starting and stopping listeners and session-private temporary tables.
// It cannot be given to anyone else.
const EngineUser = "default"

// User is one login of the server.
type User struct {
	Name     string
	Password string
	Profile  string // ProfileWrite or ProfileReadOnly
}

// Limits bound what one query of a read-only user may take.
type Limits struct {
	MaxExecutionSeconds int   // max_execution_time
	MaxMemoryBytes      int64 // max_memory_usage
	MaxResultRows       int64 // max_result_rows
	MaxResultBytes      int64 // max_result_bytes
}

// ReadOnlyLimits are the read-only profile's limits unless set otherwise:
// an analyst's mistake (a cross join, a SELECT * of the accounts) ends with
// an error instead of taking the machine.
var ReadOnlyLimits = Limits{
	MaxExecutionSeconds: 60,
	MaxMemoryBytes:      4 << 30,
	MaxResultRows:       1_000_000,
	MaxResultBytes:      256 << 20,
}

// TLS is a certificate for the secure native port.
type TLS struct {
	CertFile, KeyFile string
	// Port is the secure native (TLS) port, tcp_port_secure.
	Port int
}

// Cluster names the shards the server knows as one cluster, for Distributed
// tables: each shard lists its replicas as host:port (native port).
type Cluster struct {
	Name   string
	Shards [][]string
	// Secret authenticates the servers to each other, so a query fanned
	// out to the shards runs there as the user who sent it. Every server of
	// the cluster must have the same.
	Secret string
}

// Config is one server.
type Config struct {
	// Dir is the data directory.
	Dir string
	// Listen are the addresses to listen on (listen_host); empty means
	// 127.0.0.1.
	Listen   []string
	TCPPort  int
	HTTPPort int
	TLS      *TLS
	Users    []User
	// ReadOnly bounds the read-only profile; zero fields take
	// ReadOnlyLimits.
	ReadOnly Limits
	Cluster  *Cluster
	// LoopbackUsers log in from 127.0.0.1 and ::1 only, whatever the
	// listen addresses: the login a process on the same machine holds.
	LoopbackUsers []string
	// Hidden are tables (DATABASE.TABLE) the read-only users may not
	// read; with any, those users are granted SELECT on every other
	// table and nothing else (no table functions, no dictionaries).
	Hidden []string
	// MaxServerMemory, when positive, bounds the memory of every query
	// together (max_server_memory_usage), as the embedded engine is
	// bounded by its share of a process's memory budget.
	MaxServerMemory int64
}

var (
	tableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}\.[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	userName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	clusterID = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
)

// Validate reports the first mistake in c.
func (c *Config) Validate() error {
	if c.Dir == "" {
		return errors.New("clickhouse server: no data directory")
	}
	if hasControl(c.Dir) {
		return errors.New("clickhouse server: the data directory name holds control characters")
	}
	for _, p := range []struct {
		name string
		port int
	}{{"native", c.TCPPort}, {"HTTP", c.HTTPPort}} {
		if p.port <= 0 || p.port > 65535 {
			return fmt.Errorf("clickhouse server: %s port %d out of range", p.name, p.port)
		}
	}
	if c.TCPPort == c.HTTPPort {
		return fmt.Errorf("clickhouse server: native and HTTP ports are both %d", c.TCPPort)
	}
	for _, h := range c.listen() {
		if net.ParseIP(h) == nil {
			return fmt.Errorf("clickhouse server: listen address %q is not an IP address", h)
		}
	}
	if t := c.TLS; t != nil {
		if hasControl(t.CertFile) || hasControl(t.KeyFile) {
			return errors.New("clickhouse server: TLS file names must not hold control characters")
		}
		if t.CertFile == "" || t.KeyFile == "" {
			return errors.New("clickhouse server: TLS needs a certificate and a key file")
		}
		if t.Port <= 0 || t.Port > 65535 || t.Port == c.TCPPort || t.Port == c.HTTPPort {
			return fmt.Errorf("clickhouse server: secure native port %d out of range or taken", t.Port)
		}
	}
	if len(c.Users) == 0 {
		return errors.New("clickhouse server: no users")
	}
	seen := map[string]bool{}
	for _, u := range c.Users {
		if !userName.MatchString(u.Name) {
			return fmt.Errorf("clickhouse server: user name %q: want letters, digits and _", u.Name)
		}
		if u.Name == EngineUser {
			return fmt.Errorf("clickhouse server: user %q is the engine's own: choose another name", EngineUser)
		}
		if seen[u.Name] {
			return fmt.Errorf("clickhouse server: user %q given twice", u.Name)
		}
		seen[u.Name] = true
		if u.Profile != ProfileWrite && u.Profile != ProfileReadOnly {
			return fmt.Errorf("clickhouse server: user %q: profile %q, want %s or %s", u.Name, u.Profile, ProfileWrite, ProfileReadOnly)
		}
		if u.Password == "" && !c.loopbackOnly() {
			return fmt.Errorf("clickhouse server: user %q has no password and the server listens beyond loopback", u.Name)
		}
	}
	for _, n := range c.LoopbackUsers {
		if !seen[n] {
			return fmt.Errorf("clickhouse server: loopback user %q is not a user", n)
		}
	}
	for _, h := range c.Hidden {
		if !tableName.MatchString(h) {
			return fmt.Errorf("clickhouse server: hidden table %q: want DATABASE.TABLE", h)
		}
	}
	if cl := c.Cluster; cl != nil {
		if !clusterID.MatchString(cl.Name) {
			return fmt.Errorf("clickhouse server: cluster name %q: want letters, digits and _", cl.Name)
		}
		if hasControl(cl.Secret) {
			return fmt.Errorf("clickhouse server: cluster %s secret holds control characters", cl.Name)
		}
		if len(cl.Shards) == 0 {
			return fmt.Errorf("clickhouse server: cluster %s has no shards", cl.Name)
		}
		for i, sh := range cl.Shards {
			if len(sh) == 0 {
				return fmt.Errorf("clickhouse server: cluster %s shard %d has no replicas", cl.Name, i+1)
			}
			for _, r := range sh {
				if _, port, err := net.SplitHostPort(r); err != nil || port == "" {
					return fmt.Errorf("clickhouse server: cluster %s shard %d replica %q: want host:port", cl.Name, i+1, r)
				}
			}
		}
	}
	return nil
}

// hasControl reports characters XML 1.0 cannot carry, escaped or not.
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

func (c *Config) listen() []string {
	if len(c.Listen) == 0 {
		return []string{"127.0.0.1"}
	}
	return c.Listen
}

func (c *Config) loopbackOnly() bool {
	for _, h := range c.listen() {
		if ip := net.ParseIP(h); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// Write writes the server's configuration (config.xml) and users
// (users.xml) into dir, readable by the owner only (they hold password
// hashes and the cluster secret), and returns the configuration's path.
func (c *Config) Write(dir string) (string, error) {
	if err := c.Validate(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("clickhouse server: configuration directory: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("clickhouse server: configuration directory: %w", err)
	}
	users := filepath.Join(abs, "users.xml")
	if err := writeFile(users, c.usersXML()); err != nil {
		return "", err
	}
	conf := filepath.Join(abs, "config.xml")
	if err := writeFile(conf, c.configXML(users)); err != nil {
		return "", err
	}
	return conf, nil
}

func writeFile(path, text string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return fmt.Errorf("clickhouse server: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("clickhouse server: write %s: %w", path, err)
	}
	return nil
}

// configXML is the server configuration; every value in it has been
// validated or is escaped.
func (c *Config) configXML(usersPath string) string {
	var b strings.Builder
	b.WriteString("<clickhouse>\n")
	for _, h := range c.listen() {
		fmt.Fprintf(&b, "  <listen_host>%s</listen_host>\n", esc(h))
	}
	fmt.Fprintf(&b, "  <tcp_port>%d</tcp_port>\n  <http_port>%d</http_port>\n", c.TCPPort, c.HTTPPort)
	if t := c.TLS; t != nil {
		// For the engine's own record: Run serves this port (tls.go).
		fmt.Fprintf(&b, "  <tcp_port_secure>%d</tcp_port_secure>\n", t.Port)
		fmt.Fprintf(&b, "  <openSSL>\n    <server>\n      <certificateFile>%s</certificateFile>\n      <privateKeyFile>%s</privateKeyFile>\n", esc(t.CertFile), esc(t.KeyFile))
		b.WriteString("      <verificationMode>none</verificationMode>\n      <loadDefaultCAFile>false</loadDefaultCAFile>\n      <cacheSessions>true</cacheSessions>\n      <disableProtocols>sslv2,sslv3,tlsv1,tlsv1_1</disableProtocols>\n      <preferServerCiphers>true</preferServerCiphers>\n    </server>\n  </openSSL>\n")
	}
	if c.MaxServerMemory > 0 {
		fmt.Fprintf(&b, "  <max_server_memory_usage>%d</max_server_memory_usage>\n", c.MaxServerMemory)
	}
	fmt.Fprintf(&b, "  <users_config>%s</users_config>\n", esc(usersPath))
	if cl := c.Cluster; cl != nil {
		fmt.Fprintf(&b, "  <remote_servers>\n    <%s>\n", cl.Name)
		if cl.Secret != "" {
			fmt.Fprintf(&b, "      <secret>%s</secret>\n", esc(cl.Secret))
		}
		for _, sh := range cl.Shards {
			b.WriteString("      <shard>\n        <internal_replication>true</internal_replication>\n")
			for _, r := range sh {
				host, port, _ := net.SplitHostPort(r)
				fmt.Fprintf(&b, "        <replica><host>%s</host><port>%s</port></replica>\n", esc(host), esc(port))
			}
			b.WriteString("      </shard>\n")
		}
		fmt.Fprintf(&b, "    </%s>\n  </remote_servers>\n", cl.Name)
	}
	b.WriteString("</clickhouse>\n")
	return b.String()
}

func (c *Config) limits() Limits {
	l := c.ReadOnly
	d := ReadOnlyLimits
	if l.MaxExecutionSeconds == 0 {
		l.MaxExecutionSeconds = d.MaxExecutionSeconds
	}
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = d.MaxMemoryBytes
	}
	if l.MaxResultRows == 0 {
		l.MaxResultRows = d.MaxResultRows
	}
	if l.MaxResultBytes == 0 {
		l.MaxResultBytes = d.MaxResultBytes
	}
	return l
}

// usersXML is the users configuration: the engine's own user and the
// configured ones, their passwords as SHA-256.
func (c *Config) usersXML() string {
	l := c.limits()
	var b strings.Builder
	b.WriteString("<clickhouse>\n  <profiles>\n    <default></default>\n")
	fmt.Fprintf(&b, "    <%s></%s>\n", ProfileWrite, ProfileWrite)
	// readonly=2: no write and no DDL, but settings may be sent, as
	// stock clients and dasch itself do with every query (readonly=1
	// refuses those queries); the constraints keep the limits from being
	// raised or lifted (a zero limit means none, hence the minimum of 1).
	fmt.Fprintf(&b, "    <%s>\n      <readonly>2</readonly>\n", ProfileReadOnly)
	lims := []struct {
		name string
		v    int64
	}{
		{"max_execution_time", int64(l.MaxExecutionSeconds)},
		{"max_memory_usage", l.MaxMemoryBytes},
		{"max_result_rows", l.MaxResultRows},
		{"max_result_bytes", l.MaxResultBytes},
	}
	for _, x := range lims {
		fmt.Fprintf(&b, "      <%s>%d</%s>\n", x.name, x.v, x.name)
	}
	b.WriteString("      <result_overflow_mode>throw</result_overflow_mode>\n      <constraints>\n")
	b.WriteString("        <readonly><const/></readonly>\n        <result_overflow_mode><const/></result_overflow_mode>\n")
	for _, x := range lims {
		fmt.Fprintf(&b, "        <%s><min>1</min><max>%d</max></%s>\n", x.name, x.v, x.name)
	}
	b.WriteString("      </constraints>\n")
	fmt.Fprintf(&b, "    </%s>\n  </profiles>\n  <users>\n", ProfileReadOnly)
	// The engine's session authenticates as this user from 127.0.0.1 with
	// no password; it can start and stop listeners and nothing else that
	// touches data.
	fmt.Fprintf(&b, "    <%s>\n      <password></password>\n      <networks><ip>127.0.0.1</ip></networks>\n      <profile>default</profile>\n      <quota>default</quota>\n", EngineUser)
	b.WriteString("      <grants>\n        <query>GRANT SYSTEM LISTEN ON *.*</query>\n        <query>GRANT CREATE TEMPORARY TABLE ON *.*</query>\n      </grants>\n")
	fmt.Fprintf(&b, "    </%s>\n", EngineUser)
	users := append([]User(nil), c.Users...)
	sort.Slice(users, func(i, j int) bool { return users[i].Name < users[j].Name })
	for _, u := range users {
		sum := sha256.Sum256([]byte(u.Password))
		fmt.Fprintf(&b, "    <%s>\n      <password_sha256_hex>%s</password_sha256_hex>\n", u.Name, hex.EncodeToString(sum[:]))
		if slices.Contains(c.LoopbackUsers, u.Name) {
			b.WriteString("      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>\n")
		} else {
			b.WriteString("      <networks><ip>::/0</ip></networks>\n")
		}
		fmt.Fprintf(&b, "      <profile>%s</profile>\n      <quota>default</quota>\n", u.Profile)
		if u.Profile == ProfileReadOnly && len(c.Hidden) > 0 {
			// Explicit grants replace the default of every privilege: the
			// profile keeps writes out, these keep the hidden tables out,
			// whatever a query names them through (a view reads with its
			// definer's rights only when it has SQL SECURITY DEFINER).
			b.WriteString("      <grants>\n        <query>GRANT SELECT ON *.*</query>\n")
			for _, h := range c.Hidden {
				fmt.Fprintf(&b, "        <query>REVOKE SELECT ON %s</query>\n", h)
			}
			b.WriteString("      </grants>\n")
		}
		fmt.Fprintf(&b, "    </%s>\n", u.Name)
	}
	b.WriteString("  </users>\n  <quotas>\n    <default></default>\n  </quotas>\n</clickhouse>\n")
	return b.String()
}

// esc escapes text for an XML element.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
