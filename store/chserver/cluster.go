package chserver

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"

	"github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dasch-labs/dasch/store"
)

var _ store.Clustered = (*Store)(nil)

// clusterName is what a cluster name and a database name may be: they
// are written into DDL as identifiers.
var clusterName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// ClusterSettings are sent with every statement of a store on a cluster.
//
// distributed_foreground_insert=1: an insert into a Distributed table
// returns once every shard stored its rows, so what was written is read
// back (the ingest steps read what the inserts before them wrote).
//
// prefer_global_in_and_join=1: the subquery of an IN or a JOIN runs once,
// on the node the store talks to, and its rows go to the shards. Over
// Distributed tables this is the whole set, where a shard alone would see
// only its own rows; and the ingest session's staging tables exist only
// on that node.
func ClusterSettings() map[string]string {
	return map[string]string{"distributed_foreground_insert": "1", "prefer_global_in_and_join": "1"}
}

// cutCluster removes the cluster parameter from dsn, which the driver
// would otherwise send as a setting, and returns it.
func cutCluster(dsn string) (string, string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", "", fmt.Errorf("parse clickhouse DSN: %w", redactURLError(err))
	}
	q := u.Query()
	if !q.Has("cluster") {
		return dsn, "", nil
	}
	name := q.Get("cluster")
	if !clusterName.MatchString(name) {
		return "", "", fmt.Errorf("clickhouse DSN cluster %q: want letters, digits and _", name)
	}
	q.Del("cluster")
	u.RawQuery = q.Encode()
	return u.String(), name, nil
}

// ClusterName implements store.Clustered: the DSN's cluster, or "".
func (s *Store) ClusterName() string { return s.cluster }

// Database implements store.Clustered.
func (s *Store) Database() string { return s.copts.Auth.Database }

// LocalDatabase implements store.Clustered: the store's database with
// _local appended.
func (s *Store) LocalDatabase() string { return s.copts.Auth.Database + "_local" }

// Nodes implements store.Clustered. The servers are those the node the
// store talks to lists for the cluster (system.clusters), reached by the
// names it lists them under, with the store's login.
func (s *Store) Nodes(ctx context.Context, db string) ([]store.Node, error) {
	if s.cluster == "" {
		return nil, fmt.Errorf("clickhouse server at %s: the store is on no cluster", s.addr)
	}
	res, err := s.Query(ctx, `SELECT shard_num, replica_num, host_name, port FROM system.clusters
		WHERE cluster = {c:String} ORDER BY shard_num, replica_num`, store.Params{"c": s.cluster})
	if err != nil {
		return nil, fmt.Errorf("list nodes of cluster %s: %w", s.cluster, err)
	}
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("clickhouse server at %s knows no cluster %s (remote_servers)", s.addr, s.cluster)
	}
	var nodes []store.Node
	fail := func(err error) ([]store.Node, error) {
		for _, n := range nodes {
			_ = n.Close()
		}
		return nil, err
	}
	for _, r := range res.Rows {
		addr := net.JoinHostPort(r[2].(string), strconv.Itoa(int(r[3].(uint16))))
		o := *s.copts
		o.Addr = []string{addr}
		o.Auth.Database = db
		o.Settings = clickhouse.Settings{}
		for k, v := range s.copts.Settings {
			if _, cl := ClusterSettings()[k]; !cl {
				o.Settings[k] = v
			}
		}
		conn, err := clickhouse.Open(&o)
		if err != nil {
			return fail(connectError(addr, err))
		}
		if err := conn.Ping(ctx); err != nil {
			_ = conn.Close()
			return fail(fmt.Errorf("node %s of cluster %s: %w", addr, s.cluster, connectError(addr, err)))
		}
		n := &Store{conn: conn, addr: addr, log: s.log, maxOpen: o.MaxOpenConns, acquireWait: o.DialTimeout, copts: &o}
		nodes = append(nodes, store.Node{Shard: r[0].(uint32), Replica: r[1].(uint32), Addr: addr, Store: n, Close: n.Close})
	}
	return nodes, nil
}
