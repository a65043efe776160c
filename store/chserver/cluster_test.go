package chserver

import (
	"strings"
	"testing"
)

// TestCutCluster takes dasch's cluster parameter out of the DSN, which
// the driver would send to the server as a setting.
func TestCutCluster(t *testing.T) {
	for _, c := range []struct {
		in, dsn, cluster, err string
	}{
		{in: "clickhouse://u:p@h:9000/db", dsn: "clickhouse://u:p@h:9000/db"},
		{in: "clickhouse://u:p@h:9000/db?cluster=two", dsn: "clickhouse://u:p@h:9000/db", cluster: "two"},
		{in: "clickhouse://u:p@h:9000/db?dial_timeout=5s&cluster=two_2", dsn: "clickhouse://u:p@h:9000/db?dial_timeout=5s", cluster: "two_2"},
		{in: "clickhouse://h:9000/db?cluster=", err: "want letters"},
		{in: "clickhouse://h:9000/db?cluster=a%60b", err: "want letters"},
		{in: "clickhouse://h:9000/db?cluster=a-b", err: "want letters"},
	} {
		dsn, cluster, err := cutCluster(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("cutCluster(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || dsn != c.dsn || cluster != c.cluster {
			t.Errorf("cutCluster(%q) = %q, %q, %v; want %q, %q", c.in, dsn, cluster, err, c.dsn, c.cluster)
		}
	}
}

// FuzzCutCluster: any DSN gives a cluster name that is an identifier,
// or none, or an error; never a panic.
func FuzzCutCluster(f *testing.F) {
	for _, s := range []string{"clickhouse://h:9000/db?cluster=two", "clickhouse://h/db?cluster=%zz", "::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, cluster, err := cutCluster(in)
		if err == nil && cluster != "" && !clusterName.MatchString(cluster) {
			t.Fatalf("cutCluster(%q) gave cluster %q", in, cluster)
		}
	})
}

// TestClusterOneNode refuses a cluster DSN whose connections would spread
// over several nodes, before any dial.
func TestClusterOneNode(t *testing.T) {
	_, err := Open(t.Context(), "clickhouse://127.0.0.1:1,127.0.0.1:2/db?cluster=two&connection_open_strategy=round_robin", Options{})
	if err == nil || !strings.Contains(err.Error(), "in_order") {
		t.Errorf("Open: %v, want the in_order error", err)
	}
}
