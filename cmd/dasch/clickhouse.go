package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/dasch-labs/dasch/internal/chserve"
	"github.com/dasch-labs/dasch/server"
)

// clickhouseHelp is what `dasch help clickhouse` adds below the usage.
const clickhouseHelp = `

Runs a ClickHouse server (the pinned engine that embedded:DIR uses, ClickHouse 26.7) on a
data directory: the native protocol on --tcp-port and HTTP on --http-port, for dasch
(--store clickhouse://USER:PASS@HOST:PORT/default) and for any ClickHouse client.
One process per data directory; SIGTERM or Ctrl-C stops it cleanly.

Users come from --users FILE, one a line: NAME PROFILE PASSWORD, PROFILE being write
(read, write, migrate) or readonly (no writes or DDL, each query bounded in time, memory and
result size). Without --users there is one user, dasch, profile write, its password
$DASCH_CLICKHOUSE_PASSWORD (empty is allowed only on loopback). The user "default" is
the engine's own: it logs in from 127.0.0.1 without a password and may only start and
stop the listeners.

--tls-cert/--tls-key add a TLS native port (--tls-port; clients use secure=true).
--cluster NAME --shard HOST:PORT[,HOST:PORT] (once per shard, replicas comma-separated)
name the servers that Distributed tables of the cluster NAME spread over; every server
of it runs with the same --cluster, --shard list and $DASCH_CLUSTER_SECRET. See
docs/clickhouse.md.`

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func runClickHouse(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "clickhouse")
	dir := fs.String("data", "./clickhouse-data", "data directory")
	listen := fs.String("listen", "127.0.0.1", "addresses to listen on, comma-separated IPs (0.0.0.0 for every IPv4 interface)")
	tcpPort := fs.Int("tcp-port", 9000, "native protocol port")
	httpPort := fs.Int("http-port", 8123, "HTTP interface port")
	usersFile := fs.String("users", "", "users file: NAME PROFILE PASSWORD per line (PROFILE write or readonly)")
	tlsCert := fs.String("tls-cert", "", "certificate (PEM) for the TLS native port")
	tlsKey := fs.String("tls-key", "", "private key (PEM) for the TLS native port")
	tlsPort := fs.Int("tls-port", 9440, "TLS native protocol port (with --tls-cert)")
	cluster := fs.String("cluster", "", "cluster name for Distributed tables (with --shard)")
	var shards stringList
	fs.Var(&shards, "shard", "a shard of the cluster: HOST:PORT[,HOST:PORT] of its replicas (repeat per shard)")
	logLevel := fs.String("log-level", "warning", "engine log level: error, warning, information, debug")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	c := chserve.Config{Dir: *dir, TCPPort: *tcpPort, HTTPPort: *httpPort, Hidden: readOnlyHidden()}
	for _, h := range strings.Split(*listen, ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.Listen = append(c.Listen, h)
		}
	}
	if *usersFile != "" {
		f, err := os.Open(*usersFile)
		if err != nil {
			return fmt.Errorf("users file: %w", err)
		}
		c.Users, err = chserve.ParseUsers(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *usersFile, err)
		}
	} else {
		c.Users = []chserve.User{{Name: "dasch", Profile: chserve.ProfileWrite, Password: os.Getenv("DASCH_CLICKHOUSE_PASSWORD")}}
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	if *tlsCert != "" {
		c.TLS = &chserve.TLS{CertFile: *tlsCert, KeyFile: *tlsKey, Port: *tlsPort}
	}
	if (*cluster == "") != (len(shards) == 0) {
		return usagef("--cluster and --shard go together")
	}
	if *cluster != "" {
		c.Cluster = &chserve.Cluster{Name: *cluster, Secret: os.Getenv("DASCH_CLUSTER_SECRET")}
		for _, s := range shards {
			var replicas []string
			for _, r := range strings.Split(s, ",") {
				if r = strings.TrimSpace(r); r != "" {
					replicas = append(replicas, r)
				}
			}
			c.Cluster.Shards = append(c.Cluster.Shards, replicas)
		}
	}
	if err := c.Validate(); err != nil {
		return usagef("%v", err)
	}
	ctx, cancel := server.SignalContext(ctx)
	defer cancel()
	return chserve.Run(ctx, c, chserve.Options{LogLevel: *logLevel, Logger: e.log})
}
