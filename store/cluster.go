package store

import "context"

// Clustered is a store whose tables are spread over the shards of a
// cluster: each node holds the local tables in LocalDatabase, and the
// store's own database holds Distributed tables over them, which every
// read and insert goes through. The migrations (schema.Migrate) build
// both.
type Clustered interface {
	ExecQuerier
	// ClusterName is the cluster's name in the servers' remote_servers.
	ClusterName() string
	// Database is the store's database, of the Distributed tables.
	Database() string
	// LocalDatabase is the database of the local tables on every node.
	LocalDatabase() string
	// Nodes opens a store on every server of the cluster, in shard and
	// replica order, each on database db; the caller closes them.
	Nodes(ctx context.Context, db string) ([]Node, error)
}

// Node is one server of a cluster, opened by Clustered.Nodes.
type Node struct {
	Shard, Replica uint32
	// Addr is the server's host:port, for errors.
	Addr  string
	Store ExecQuerier
	Close func() error
}

// ClusterOf returns s as a Clustered store when it is on a cluster.
func ClusterOf(s ExecQuerier) (Clustered, bool) {
	c, ok := s.(Clustered)
	if !ok || c.ClusterName() == "" {
		return nil, false
	}
	return c, true
}
