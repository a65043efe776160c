// Package schema owns the ClickHouse tables: versioned, idempotent
// migrations applied on start and by `dasch migrate`.
package schema

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/store"
)

const createMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version UInt32,
	name String,
	applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = ReplacingMergeTree
ORDER BY version`

// Applied returns the schema versions recorded in the store.
func Applied(ctx context.Context, s store.ExecQuerier) (map[uint32]bool, error) {
	if err := s.Exec(ctx, createMigrations, nil); err != nil {
		return nil, fmt.Errorf("create %s: %w", TableMigrations, err)
	}
	res, err := s.Query(ctx, `SELECT DISTINCT version FROM schema_migrations`, nil)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", TableMigrations, err)
	}
	done := make(map[uint32]bool, len(res.Rows))
	for _, r := range res.Rows {
		done[r[0].(uint32)] = true
	}
	return done, nil
}

// Migrate applies every migration the store lacks, in order, and returns how
// many it applied. Running it again applies nothing. A store on a cluster
// (store.Clustered) gets local tables on every node and Distributed
// tables over them (docs/clickhouse.md, Clusters).
func Migrate(ctx context.Context, s store.ExecQuerier) (int, error) {
	if c, ok := store.ClusterOf(s); ok {
		return migrateCluster(ctx, c)
	}
	done, err := Applied(ctx, s)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range Migrations() {
		if done[m.Version] {
			continue
		}
		for i, stmt := range m.Statements {
			if err := s.Exec(ctx, stmt, nil); err != nil {
				return n, fmt.Errorf("migration %d (%s) statement %d: %w", m.Version, m.Name, i+1, err)
			}
		}
		if err := record(ctx, s, m); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Latest is the newest schema version this build knows.
func Latest() uint32 {
	ms := Migrations()
	return ms[len(ms)-1].Version
}

// Check reports an error unless the store holds every migration this
// build knows, without changing it: for a store opened read-only.
func Check(ctx context.Context, q store.Querier) error {
	res, err := q.Query(ctx, `SELECT DISTINCT version FROM schema_migrations`, nil)
	if err != nil {
		return fmt.Errorf("read %s: %w", TableMigrations, err)
	}
	done := make(map[uint32]bool, len(res.Rows))
	for i := range res.Rows {
		r := res.Row(i)
		v := r.U32(0)
		if err := r.Err(); err != nil {
			return fmt.Errorf("read %s: %w", TableMigrations, err)
		}
		done[v] = true
	}
	for _, m := range Migrations() {
		if !done[m.Version] {
			return fmt.Errorf("schema: the store lacks migration %d (%s) of this build's %d; open it writable once (dasch migrate)", m.Version, m.Name, Latest())
		}
	}
	return nil
}
