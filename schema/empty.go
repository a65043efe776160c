package schema

import (
	"context"
	"fmt"
	"slices"

	"github.com/dasch-labs/dasch/store"
)

// seedStepVersion marks the carried-over balances of migration 6 as a
// finished state step: the one row a migration leaves in a fresh store's
// tables, besides the record of migrations.
const seedStepVersion = `INSERT INTO compressed_step_versions (version) VALUES (1)`

// Seeds are the statements that write the rows the migrations leave in
// an otherwise empty store, for Empty to write again.
func Seeds() []string { return []string{seedStepVersion} }

// Empty makes a migrated store as the migrations leave a fresh one,
// without running them again: it truncates every table but the record of
// migrations and keep (Truncate), then writes the seeds. Tests and
// conformance runs empty one store between cases, several times faster
// than re-running the migrations each time (a slice of the DAS corpus,
// docs/performance.md).
func Empty(ctx context.Context, s store.ExecQuerier, keep ...string) error {
	if err := Truncate(ctx, s, append([]string{TableMigrations}, keep...)...); err != nil {
		return err
	}
	for _, q := range Seeds() {
		if err := s.Exec(ctx, q, nil); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	return nil
}

// Truncate empties every table holding rows but keep, the record of
// migrations included unless kept. Empty tables are left alone, and tables
// are truncated one by one: TRUNCATE ALL TABLES leaves later merges (and
// OPTIMIZE ... FINAL) failing on the embedded engine.
//
// On a cluster it empties the local tables of every node.
func Truncate(ctx context.Context, s store.ExecQuerier, keep ...string) error {
	if c, ok := store.ClusterOf(s); ok {
		return truncateCluster(ctx, c, keep)
	}
	res, err := s.Query(ctx, `SELECT name FROM system.tables
		WHERE database = currentDatabase() AND engine NOT IN ('MaterializedView', 'View')
		AND (total_rows IS NULL OR total_rows > 0)`, nil)
	if err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	for _, r := range res.Rows {
		name := r[0].(string)
		if slices.Contains(keep, name) {
			continue
		}
		if err := s.Exec(ctx, "TRUNCATE TABLE `"+name+"`", nil); err != nil {
			return fmt.Errorf("empty %s: %w", name, err)
		}
	}
	return nil
}

// TruncateTables empties tables: on a cluster, their local tables on
// every node (a TRUNCATE of a Distributed table leaves the shards' rows).
func TruncateTables(ctx context.Context, s store.ExecQuerier, tables ...string) error {
	targets := []store.ExecQuerier{s}
	if c, ok := store.ClusterOf(s); ok {
		nodes, err := c.Nodes(ctx, c.LocalDatabase())
		if err != nil {
			return err
		}
		defer closeNodes(nodes)
		targets = targets[:0]
		for _, nd := range nodes {
			targets = append(targets, nd.Store)
		}
	}
	for _, t := range targets {
		for _, name := range tables {
			if err := t.Exec(ctx, "TRUNCATE TABLE `"+name+"`", nil); err != nil {
				return fmt.Errorf("empty %s: %w", name, err)
			}
		}
	}
	return nil
}
