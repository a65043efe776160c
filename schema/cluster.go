package schema

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dasch-labs/dasch/store"
)

// shardKeys is each table's sharding key on a cluster: an expression of
// columns that every version of a row shares, so all versions land on
// one shard and FINAL, argMax and LIMIT 1 BY fold them there. Each key
// is a subset of the table's ORDER BY (the ReplacingMergeTree identity),
// the column that spreads rows best, and, where a materialized view or a
// state step writes one table from another, the same column on both:
// a view writes on the shard its source row went to, and the step's
// rewrite of a row must go to the shard the view wrote it on.
//
//   - accounts, accounts_by_owner (its view): pubkey.
//   - compressed_accounts and its views compressed_by_owner,
//     token_accounts, token_accounts_by_delegate (whose spent rows the
//     step writes), compressed_spent and its view token_ledger,
//     token_ledger_applied, compressed_spent_pending: the account hash.
//   - token_balances: (owner, mint); mint_holders: (mint, owner), so a
//     holder's tombstone for its old balance meets the old live row.
//   - transactions, parsed_transactions, compression_signatures,
//     token_swaps: signature; owner_txs, token_owner_txs: owner.
//   - asset tables: the asset id, or the account the row is keyed by
//     where the asset id is not in the key.
//   - blocks: slot; tables keyed by a name or version: that column.
//   - Tables that are never folded (MergeTree) and the staging
//     templates (never written: each session has its own copies on one
//     node): rand().
var shardKeys = map[string]string{
	TableMigrations:              "version",
	"accounts":                   "cityHash64(pubkey)",
	"accounts_by_owner":          "cityHash64(pubkey)",
	"address_transactions":       "cityHash64(address)",
	"address_tree_elements":      "cityHash64(tree, leaf_idx)",
	"api_keys":                   "cityHash64(key_hash)",
	"api_projects":               "cityHash64(id)",
	"asset_accounts":             "cityHash64(asset_id)",
	"asset_closes":               "cityHash64(pubkey)",
	"asset_docs":                 "cityHash64(id)",
	"asset_docs_prev":            "cityHash64(id)",
	"asset_editions":             "cityHash64(master)",
	"asset_keys":                 "cityHash64(id)",
	"asset_metadata":             "cityHash64(hash)",
	"asset_metadata_docs":        "cityHash64(hash)",
	"asset_pubkeys":              "cityHash64(pubkey)",
	"asset_state":                "cityHash64(id)",
	"asset_token_accounts":       "cityHash64(address)",
	"asset_token_owners":         "cityHash64(address)",
	"blocks":                     "slot",
	"bubblegum_events":           "cityHash64(asset_id)",
	"bubblegum_nodes":            "cityHash64(tree, node_index)",
	"compressed_accounts":        "cityHash64(hash)",
	"compressed_by_owner":        "cityHash64(hash)",
	"compressed_spent":           "cityHash64(hash)",
	"compressed_spent_pending":   "cityHash64(hash)",
	"compressed_step_versions":   "version",
	"compression_signatures":     "cityHash64(signature)",
	"dead_letters":               "cityHash64(kind, key)",
	"indexer_checkpoints":        "cityHash64(name)",
	"indexer_rewrites":           "rand()",
	"mint_holders":               "cityHash64(mint, owner)",
	"owner_txs":                  "cityHash64(owner)",
	"parsed_transactions":        "cityHash64(signature)",
	"request_log":                "rand()",
	"sol_balances":               "cityHash64(address)",
	"state_tree_nodes":           "cityHash64(tree, node_idx)",
	"state_trees":                "cityHash64(tree)",
	"token_accounts":             "cityHash64(hash)",
	"token_accounts_by_delegate": "cityHash64(hash)",
	"token_balances":             "cityHash64(owner, mint)",
	"token_ledger":               "cityHash64(hash)",
	"token_ledger_applied":       "cityHash64(hash)",
	"token_owner_txs":            "cityHash64(owner)",
	"token_prices":               "rand()",
	"token_swaps":                "cityHash64(signature)",
	"transactions":               "cityHash64(signature)",
	"compressed_step_changes":    "rand()",
	"compressed_step_deltas":     "rand()",
	"compressed_step_events":     "rand()",
	"compressed_step_spent":      "rand()",
	TableStepSpent:               "rand()",
	TableStepStored:              "rand()",
	"compressed_accounts_next":   "cityHash64(hash)",
	"token_accounts_next":        "cityHash64(hash)",
	TableSpentPending + "_next":  "cityHash64(hash)",
	"compressed_accounts_old":    "cityHash64(hash)",
	"token_accounts_old":         "cityHash64(hash)",
	TableSpentPending + "_old":   "cityHash64(hash)",
	"owner_signatures":           "cityHash64(owner)",
	"token_owner_signatures":     "cityHash64(owner)",
}

// ShardKey is table's sharding key on a cluster.
func ShardKey(table string) (string, bool) {
	k, ok := shardKeys[table]
	return k, ok
}

// identifier is a cluster or database name written into DDL.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// migrateCluster applies the migrations to a store on a cluster: every
// migration runs on the local tables of every node (its LocalDatabase),
// unchanged without Keeper, as ON CLUSTER DDL with Replicated engines
// with it (KeeperStatement); then every node's database gets a
// Distributed table over each local table (syncDistributed).
func migrateCluster(ctx context.Context, c store.Clustered) (int, error) {
	cluster, main, local := c.ClusterName(), c.Database(), c.LocalDatabase()
	for _, id := range []string{cluster, main, local} {
		if !identifier.MatchString(id) {
			return 0, fmt.Errorf("cluster %s: %q is not a plain name", cluster, id)
		}
	}
	keeper := HasKeeper(ctx, c)
	mains, err := c.Nodes(ctx, main)
	if err != nil {
		return 0, err
	}
	defer closeNodes(mains)
	for _, nd := range mains {
		if err := nd.Store.Exec(ctx, "CREATE DATABASE IF NOT EXISTS `"+local+"`", nil); err != nil {
			return 0, fmt.Errorf("node %s: create database %s: %w", nd.Addr, local, err)
		}
	}
	locals, err := c.Nodes(ctx, local)
	if err != nil {
		return 0, err
	}
	defer closeNodes(locals)
	n := 0
	if keeper {
		if n, err = migrateKeeper(ctx, cluster, locals); err != nil {
			return n, err
		}
	} else {
		// Without Keeper nothing replicates: each node is migrated on its
		// own (a shard should then have one replica).
		for _, nd := range locals {
			k, err := Migrate(ctx, nd.Store)
			if err != nil {
				return n, fmt.Errorf("node %s: %w", nd.Addr, err)
			}
			n = max(n, k)
		}
	}
	for _, nd := range mains {
		if err := syncDistributed(ctx, nd.Store, cluster, main, local); err != nil {
			return n, fmt.Errorf("node %s: %w", nd.Addr, err)
		}
	}
	return n, nil
}

func closeNodes(ns []store.Node) {
	for _, n := range ns {
		_ = n.Close()
	}
}

// HasKeeper tells whether the server s talks to has a Keeper (ZooKeeper)
// session: then ON CLUSTER DDL and Replicated engines work.
func HasKeeper(ctx context.Context, s store.Querier) bool {
	res, err := s.Query(ctx, `SELECT count() FROM system.zookeeper_connection`, nil)
	if err != nil || len(res.Rows) == 0 {
		return false
	}
	n, _ := res.Rows[0][0].(uint64)
	return n > 0
}

// firstReplicas are the first replica of every shard: with replication,
// a write there reaches the shard's other replicas.
func firstReplicas(ns []store.Node) []store.Node {
	var out []store.Node
	for _, n := range ns {
		if n.Replica == 1 || len(out) == 0 || out[len(out)-1].Shard != n.Shard {
			out = append(out, n)
		}
	}
	return out
}

// migrateKeeper applies the migrations on a cluster with Keeper: DDL once,
// ON CLUSTER, from the first node; data statements (backfills, the record
// of migrations) on the first replica of every shard, over its rows.
func migrateKeeper(ctx context.Context, cluster string, locals []store.Node) (int, error) {
	entry, shards := locals[0], firstReplicas(locals)
	q, _ := KeeperStatement(createMigrations, cluster)
	if err := entry.Store.Exec(ctx, q, nil); err != nil {
		return 0, fmt.Errorf("create %s on cluster %s: %w", TableMigrations, cluster, err)
	}
	done := map[uint32]int{}
	for _, nd := range shards {
		res, err := nd.Store.Query(ctx, `SELECT DISTINCT version FROM schema_migrations`, nil)
		if err != nil {
			return 0, fmt.Errorf("node %s: read %s: %w", nd.Addr, TableMigrations, err)
		}
		for _, r := range res.Rows {
			done[r[0].(uint32)]++
		}
	}
	n := 0
	for _, m := range Migrations() {
		if done[m.Version] == len(shards) {
			continue
		}
		for i, stmt := range m.Statements {
			q, ddl := KeeperStatement(stmt, cluster)
			targets := shards
			if ddl {
				targets = []store.Node{entry}
			}
			for _, nd := range targets {
				if err := nd.Store.Exec(ctx, q, nil); err != nil {
					return n, fmt.Errorf("node %s: migration %d (%s) statement %d: %w", nd.Addr, m.Version, m.Name, i+1, err)
				}
			}
		}
		for _, nd := range shards {
			if err := record(ctx, nd.Store, m); err != nil {
				return n, fmt.Errorf("node %s: %w", nd.Addr, err)
			}
		}
		n++
	}
	return n, nil
}

// record notes m as applied.
func record(ctx context.Context, s store.Execer, m Migration) error {
	err := s.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ({v:UInt32}, {n:String})`,
		store.Params{"v": strconv.FormatUint(uint64(m.Version), 10), "n": m.Name})
	if err != nil {
		return fmt.Errorf("record migration %d: %w", m.Version, err)
	}
	return nil
}

// The DDL heads KeeperStatement puts ON CLUSTER after: the statement's
// kind and object name. RENAME takes it at its end.
var (
	ddlHead = regexp.MustCompile("(?is)^\\s*((?:CREATE\\s+(?:MATERIALIZED\\s+VIEW|TABLE|VIEW)|DROP\\s+(?:TABLE|VIEW)|TRUNCATE\\s+TABLE)" +
		"(?:\\s+IF\\s+(?:NOT\\s+)?EXISTS)?\\s+[A-Za-z0-9_.`]+|ALTER\\s+TABLE\\s+[A-Za-z0-9_.`]+)")
	renameHead = regexp.MustCompile(`(?is)^\s*RENAME\s+TABLE\s`)
	// mergeEngine is a MergeTree-family engine clause, with its
	// parameters if any.
	mergeEngine = regexp.MustCompile(`ENGINE\s*=\s*(ReplacingMergeTree|MergeTree)\b(?:\(([^)]*)\))?`)
	rocksEngine = regexp.MustCompile(`ENGINE\s*=\s*EmbeddedRocksDB\s+PRIMARY\s+KEY\s+([A-Za-z0-9_]+)`)
)

// replicaArgs are the Replicated engines' Keeper path and replica name:
// the path by table UUID (ON CLUSTER gives every replica the same one,
// and it survives a RENAME) and shard, the replica from the server's
// macros (docker/cluster/cluster.xml).
const replicaArgs = `'/clickhouse/tables/{uuid}/{shard}', '{replica}'`

// KeeperStatement is stmt for a cluster with Keeper, and whether it is
// DDL: DDL gets ON CLUSTER and Replicated engines; data statements come
// back unchanged, to run on every shard. asset_docs, an EmbeddedRocksDB
// table that does not replicate, becomes a ReplicatedReplacingMergeTree
// keyed by id whose merges keep the highest slot (its readers keep the
// highest slot of an id read twice, assetrows.LoadFolded).
func KeeperStatement(stmt, cluster string) (string, bool) {
	on := " ON CLUSTER `" + cluster + "`"
	switch {
	case renameHead.MatchString(stmt):
		return strings.TrimRight(stmt, " \t\n;") + on, true
	case !ddlHead.MatchString(stmt):
		return stmt, false
	}
	loc := ddlHead.FindStringSubmatchIndex(stmt)
	out := stmt[:loc[3]] + on + stmt[loc[3]:]
	out = mergeEngine.ReplaceAllStringFunc(out, func(e string) string {
		m := mergeEngine.FindStringSubmatch(e)
		args := replicaArgs
		if strings.TrimSpace(m[2]) != "" {
			args += ", " + m[2]
		}
		return "ENGINE = Replicated" + m[1] + "(" + args + ")"
	})
	out = rocksEngine.ReplaceAllString(out, "ENGINE = ReplicatedReplacingMergeTree("+replicaArgs+", slot) ORDER BY $1")
	return out, true
}

// syncDistributed gives database main of the node s talks to a
// Distributed table over each local table of the cluster (in local),
// with the local table's columns: made when missing, made again when
// the local columns changed (a migration altered them), dropped when the
// local table is gone.
func syncDistributed(ctx context.Context, s store.ExecQuerier, cluster, main, local string) error {
	res, err := s.Query(ctx, `SELECT database, name, engine FROM system.tables
		WHERE database IN ({m:String}, {l:String}) AND engine NOT IN ('MaterializedView', 'View')`,
		store.Params{"m": main, "l": local})
	if err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	locals, mains := map[string]bool{}, map[string]string{}
	for _, r := range res.Rows {
		db, name, engine := r[0].(string), r[1].(string), r[2].(string)
		if db == local {
			locals[name] = true
		} else if !IsSessionTable(name) {
			mains[name] = engine
		}
	}
	cols, err := s.Query(ctx, `SELECT database, table, arrayStringConcat(groupArray(concat(name, ' ', type, ' ', default_kind)), ', ')
		FROM (SELECT database, table, name, type, default_kind FROM system.columns
			WHERE database IN ({m:String}, {l:String}) ORDER BY database, table, position)
		GROUP BY database, table`, store.Params{"m": main, "l": local})
	if err != nil {
		return fmt.Errorf("list columns: %w", err)
	}
	colsOf := map[string]string{}
	for _, r := range cols.Rows {
		colsOf[r[0].(string)+"."+r[1].(string)] = r[2].(string)
	}
	var errs []error
	for name := range locals {
		key, ok := shardKeys[name]
		if !ok {
			errs = append(errs, fmt.Errorf("table %s has no sharding key (schema.shardKeys)", name))
			continue
		}
		if engine, ok := mains[name]; ok {
			if engine != "Distributed" {
				return fmt.Errorf("database %s holds table %s (%s) of its own: migrate a fresh database onto a cluster", main, name, engine)
			}
			if colsOf[main+"."+name] == colsOf[local+"."+name] {
				continue
			}
			if err := s.Exec(ctx, fmt.Sprintf("DROP TABLE IF EXISTS `%s`.`%s` SYNC", main, name), nil); err != nil {
				return fmt.Errorf("drop distributed %s: %w", name, err)
			}
		}
		q := fmt.Sprintf("CREATE TABLE IF NOT EXISTS `%s`.`%s` AS `%s`.`%s` ENGINE = Distributed('%s', '%s', '%s', %s)",
			main, name, local, name, cluster, local, name, key)
		if err := s.Exec(ctx, q, nil); err != nil {
			return fmt.Errorf("create distributed %s: %w", name, err)
		}
	}
	for name, engine := range mains {
		if engine == "Distributed" && !locals[name] {
			if err := s.Exec(ctx, fmt.Sprintf("DROP TABLE IF EXISTS `%s`.`%s` SYNC", main, name), nil); err != nil {
				return fmt.Errorf("drop distributed %s: %w", name, err)
			}
		}
	}
	return errors.Join(errs...)
}

// truncateCluster empties the local tables of every node (Truncate on
// each) but keep.
func truncateCluster(ctx context.Context, c store.Clustered, keep []string) error {
	res, err := c.Query(ctx, `SELECT count() FROM system.databases WHERE name = {l:String}`, store.Params{"l": c.LocalDatabase()})
	if err != nil {
		return fmt.Errorf("find database %s: %w", c.LocalDatabase(), err)
	}
	if n, _ := res.Rows[0][0].(uint64); n == 0 {
		return nil // never migrated
	}
	nodes, err := c.Nodes(ctx, c.LocalDatabase())
	if err != nil {
		return err
	}
	defer closeNodes(nodes)
	for _, nd := range nodes {
		if err := Truncate(ctx, nd.Store, keep...); err != nil {
			return fmt.Errorf("node %s: %w", nd.Addr, err)
		}
	}
	return nil
}
