package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/internal/chtest"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chserver"
)

// server is the test binary's ClickHouse server (a child process) and the
// server-engine store on it.
var server struct {
	once   sync.Once
	srv    *chtest.Server
	st     *chserver.Store
	err    error
	schema string
}

// Server returns the test binary's ClickHouse server, started on first
// use from the embedded engine's library (internal/chtest).
func Server(t testing.TB) *chtest.Server {
	t.Helper()
	startServer()
	if server.err != nil {
		t.Fatalf("clickhouse server: %v", server.err)
	}
	return server.srv
}

// OpenServer returns a store of the server engine (store/chserver) on the
// test binary's ClickHouse server, migrated and emptied as Open leaves
// the embedded one: the same tests hold both engines to the same answers.
func OpenServer(t testing.TB) arrowstore.Store {
	t.Helper()
	startServer()
	if server.err != nil {
		t.Fatalf("clickhouse server: %v", server.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := reuse(ctx, server.st, &server.schema); err != nil {
		t.Fatalf("reset server store: %v", err)
	}
	return server.st
}

func startServer() {
	server.once.Do(func() {
		server.srv, server.err = chtest.StartProcess(chtest.Options{})
		if server.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// As Open's: repeated identical queries must not be answered from
		// the cache of an earlier test's data.
		server.st, server.err = chserver.Open(ctx, server.srv.DSN("use_query_condition_cache=0"), chserver.Options{})
	})
}

func closeServer() {
	closeCluster()
	if server.st != nil {
		server.st.Close()
	}
	if server.srv != nil {
		_ = server.srv.Stop()
	}
}

// cluster is the test binary's cluster of two servers (internal/chtest,
// two shards, no Keeper) and the store on it.
var cluster struct {
	once   sync.Once
	srvs   []*chtest.Server
	st     *chserver.Store
	err    error
	schema string
}

// ClusterName is the test cluster's name.
const ClusterName = "two"

// OpenCluster returns a store of the server engine on the test binary's
// cluster of two servers, one shard each, opened with cluster=two
// (store.Clustered): migrated, its local tables on both servers, its
// reads and inserts through Distributed tables, emptied as OpenServer
// leaves the single server's.
func OpenCluster(t testing.TB) arrowstore.Store {
	t.Helper()
	cluster.once.Do(func() {
		cluster.srvs, cluster.err = chtest.StartClusterProcess(ClusterName, 2)
		if cluster.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cluster.st, cluster.err = chserver.Open(ctx, cluster.srvs[0].DSN("cluster="+ClusterName+"&use_query_condition_cache=0"), chserver.Options{})
	})
	if cluster.err != nil {
		t.Fatalf("clickhouse cluster: %v", cluster.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := reuse(ctx, cluster.st, &cluster.schema); err != nil {
		t.Fatalf("reset cluster store: %v", err)
	}
	return cluster.st
}

// ClusterServers are the servers of the test cluster, once OpenCluster
// started them.
func ClusterServers() []*chtest.Server { return cluster.srvs }

func closeCluster() {
	if cluster.st != nil {
		cluster.st.Close()
	}
	for _, s := range cluster.srvs {
		_ = s.Stop()
	}
}
