package chtest

import (
	"errors"
	"strconv"
	"testing"

	"github.com/dasch-labs/dasch/internal/chserve"
)

// StartCluster runs n servers for t that form the cluster name, one
// shard each and no Keeper, stopped when t ends; the first is the one to
// connect to.
func StartCluster(t testing.TB, name string, n int) []*Server {
	t.Helper()
	ss, err := StartClusterProcess(name, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, s := range ss {
			if err := s.Stop(); err != nil {
				t.Errorf("stop clickhouse server: %v", err)
			}
		}
	})
	return ss
}

// StartClusterProcess is StartCluster for servers that live until Stop
// or the end of this process. Every server lists every other in its
// remote_servers (chserve.Cluster) with one inter-server secret, and has
// the same logins: a store on the first reaches the others with its own.
func StartClusterProcess(name string, n int) ([]*Server, error) {
	if n < 1 {
		return nil, errors.New("clickhouse test cluster: no servers")
	}
	var err error
	for range 3 {
		var ss []*Server
		if ss, err = startCluster(name, n); err == nil {
			return ss, nil
		}
		if !errors.Is(err, errPortRace) {
			break
		}
	}
	return nil, err
}

func startCluster(name string, n int) ([]*Server, error) {
	ports, err := FreePorts(2 * n)
	if err != nil {
		return nil, err
	}
	cl := &chserve.Cluster{Name: name, Secret: secret()}
	for i := range n {
		cl.Shards = append(cl.Shards, []string{"127.0.0.1:" + strconv.Itoa(ports[2*i])})
	}
	pass, analyst := secret(), secret()
	var ss []*Server
	for i := range n {
		s, err := start(Options{Cluster: cl, tcp: ports[2*i], http: ports[2*i+1], password: pass, analystPassw: analyst})
		if err != nil {
			for _, s := range ss {
				_ = s.Stop()
			}
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}
