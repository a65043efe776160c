package schema_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// TestMigrateCluster migrates a store on the test cluster (two servers,
// one shard each, no Keeper): every node holds the local tables, the
// store's database a Distributed table over each, and rows written
// through them spread over both shards while FINAL folds every version of
// a row on its shard.
func TestMigrateCluster(t *testing.T) {
	s := storetest.OpenCluster(t)
	ctx := context.Background()
	c, ok := store.ClusterOf(s)
	if !ok {
		t.Fatal("the cluster store is not store.Clustered")
	}
	if n, err := schema.Migrate(ctx, s); err != nil || n != 0 {
		t.Fatalf("migrate again: %d applied, %v; want 0", n, err)
	}
	nodes, err := c.Nodes(ctx, c.Database())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, n := range nodes {
			n.Close()
		}
	}()
	if len(nodes) != 2 {
		t.Fatalf("%d nodes, want 2", len(nodes))
	}
	var first string
	for _, nd := range nodes {
		res, err := nd.Store.Query(ctx, `SELECT
			(SELECT count() FROM system.tables WHERE database = {l:String} AND engine LIKE '%MergeTree'),
			(SELECT count() FROM system.tables WHERE database = {m:String} AND engine = 'Distributed'),
			(SELECT max(version) FROM `+"`"+c.LocalDatabase()+"`"+`.schema_migrations)`,
			store.Params{"l": c.LocalDatabase(), "m": c.Database()})
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(res.Rows[0]...)
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("node %s has %s (local, distributed tables, version), node 1 %s", nd.Addr, got, first)
		}
		if v := res.Rows[0][2].(uint32); v != schema.Latest() {
			t.Errorf("node %s at version %d, want %d", nd.Addr, v, schema.Latest())
		}
	}
	// 1,000 accounts written twice, the second version newer.
	for _, v := range []int{1, 2} {
		err := s.Exec(ctx, fmt.Sprintf(`INSERT INTO accounts (pubkey, owner, lamports, data, executable, rent_epoch, slot, write_version)
			SELECT toFixedString(toString(number), 32), toFixedString('o', 32), %d, '', false, 0, %d, 0 FROM numbers(1000)`, v, v), nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Query(ctx, `SELECT count(), sum(lamports), uniqExact(_shard_num) FROM accounts FINAL`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows[0]...); got != "1000 2000 2" {
		t.Errorf("accounts FINAL: count, lamports, shards = %s, want 1000 2000 2", got)
	}
	// The view on the local accounts wrote accounts_by_owner on each shard.
	res, err = s.Query(ctx, `SELECT count(), uniqExact(_shard_num) FROM accounts_by_owner FINAL`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows[0]...); got != "1000 2" {
		t.Errorf("accounts_by_owner FINAL: count, shards = %s, want 1000 2", got)
	}
	if err := schema.Empty(ctx, s); err != nil {
		t.Fatal(err)
	}
	res, err = s.Query(ctx, `SELECT (SELECT count() FROM accounts), (SELECT count() FROM compressed_step_versions)`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows[0]...); got != "0 1" {
		t.Errorf("after Empty: accounts, step versions = %s, want 0 1", got)
	}
}

// TestShardKeys: every table the migrations leave has a sharding key.
func TestShardKeys(t *testing.T) {
	s := storetest.Open(t)
	res, err := s.Query(context.Background(), `SELECT name FROM system.tables
		WHERE database = currentDatabase() AND engine NOT IN ('MaterializedView', 'View')`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		name := r[0].(string)
		if _, ok := schema.ShardKey(name); !ok && !schema.IsSessionTable(name) {
			t.Errorf("table %s has no sharding key", name)
		}
	}
}

// TestKeeperStatement checks the statements a cluster with Keeper runs.
func TestKeeperStatement(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ddl      bool
	}{
		{"CREATE TABLE IF NOT EXISTS blocks (\n\tslot UInt64\n) ENGINE = ReplacingMergeTree\nORDER BY slot",
			"CREATE TABLE IF NOT EXISTS blocks ON CLUSTER `c` (\n\tslot UInt64\n) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}')\nORDER BY slot", true},
		{"CREATE TABLE IF NOT EXISTS mint_holders (x UInt8) ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY x",
			"CREATE TABLE IF NOT EXISTS mint_holders ON CLUSTER `c` (x UInt8) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', version, is_deleted) ORDER BY x", true},
		{"CREATE TABLE IF NOT EXISTS request_log (x UInt8) ENGINE = MergeTree ORDER BY x",
			"CREATE TABLE IF NOT EXISTS request_log ON CLUSTER `c` (x UInt8) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}') ORDER BY x", true},
		{"CREATE TABLE IF NOT EXISTS asset_docs (id FixedString(32), slot UInt64) ENGINE = EmbeddedRocksDB\n\t\tPRIMARY KEY id",
			"CREATE TABLE IF NOT EXISTS asset_docs ON CLUSTER `c` (id FixedString(32), slot UInt64) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', slot) ORDER BY id", true},
		{"CREATE TABLE IF NOT EXISTS compressed_step_spent (hash FixedString(32)) ENGINE = Memory",
			"CREATE TABLE IF NOT EXISTS compressed_step_spent ON CLUSTER `c` (hash FixedString(32)) ENGINE = Memory", true},
		{"CREATE MATERIALIZED VIEW IF NOT EXISTS v TO t AS SELECT 1 FROM s",
			"CREATE MATERIALIZED VIEW IF NOT EXISTS v ON CLUSTER `c` TO t AS SELECT 1 FROM s", true},
		{"ALTER TABLE token_balances ADD COLUMN IF NOT EXISTS pair FixedString(16)",
			"ALTER TABLE token_balances ON CLUSTER `c` ADD COLUMN IF NOT EXISTS pair FixedString(16)", true},
		{"DROP TABLE IF EXISTS owner_signatures", "DROP TABLE IF EXISTS owner_signatures ON CLUSTER `c`", true},
		{"DROP VIEW IF EXISTS v", "DROP VIEW IF EXISTS v ON CLUSTER `c`", true},
		{"TRUNCATE TABLE t", "TRUNCATE TABLE t ON CLUSTER `c`", true},
		{"RENAME TABLE a TO a_old, b TO a", "RENAME TABLE a TO a_old, b TO a ON CLUSTER `c`", true},
		{"INSERT INTO asset_docs SELECT id FROM asset_state FINAL", "INSERT INTO asset_docs SELECT id FROM asset_state FINAL", false},
	} {
		got, ddl := schema.KeeperStatement(c.in, "c")
		if got != c.want || ddl != c.ddl {
			t.Errorf("KeeperStatement(%q)\n= %q, %v\nwant %q, %v", c.in, got, ddl, c.want, c.ddl)
		}
	}
	// Every migration statement is either DDL on the cluster or data, and
	// the engine parses what the cluster gets (EXPLAIN AST runs nothing).
	s := storetest.Open(t)
	for _, m := range schema.Migrations() {
		for _, stmt := range m.Statements {
			got, ddl := schema.KeeperStatement(stmt, "c")
			if err := s.Exec(context.Background(), "EXPLAIN AST "+got, nil); err != nil {
				t.Errorf("migration %d: the engine does not parse %q: %v", m.Version, got, err)
			}
			if ddl != strings.Contains(got, "ON CLUSTER `c`") {
				t.Errorf("migration %d: %q: DDL %v without ON CLUSTER", m.Version, stmt, ddl)
			}
			if ddl && (strings.Contains(got, "= ReplacingMergeTree") || strings.Contains(got, "= MergeTree") || strings.Contains(got, "EmbeddedRocksDB")) {
				t.Errorf("migration %d: an engine left unreplicated: %s", m.Version, got)
			}
			if !ddl && !strings.HasPrefix(strings.TrimSpace(stmt), "INSERT") {
				t.Errorf("migration %d: %q is neither DDL nor an insert", m.Version, stmt)
			}
		}
	}
}
