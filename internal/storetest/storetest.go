// Package storetest gives tests a real embedded ClickHouse store.
package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dasch-labs/dasch/internal/tempdir"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store/arrowstore"
	"github.com/dasch-labs/dasch/store/chdb"
)

// shared is the one embedded store of this test binary: the engine allows
// one data directory per process. Tests using it must not run in parallel.
var shared struct {
	once sync.Once
	db   *chdb.DB
	dir  *tempdir.Dir
	err  error
	// schema is the migrated schema's fingerprint, taken after the first
	// reset migrated the store from scratch.
	schema string
}

// Open returns the test binary's embedded store, migrated and emptied.
func Open(t testing.TB) arrowstore.Store {
	t.Helper()
	ctx := context.Background()
	shared.once.Do(func() {
		// A test binary killed before Close leaves its directory: the next
		// one removes it.
		shared.dir, _, shared.err = tempdir.Make("dasch-test-*")
		if shared.err != nil {
			return
		}
		shared.db, shared.err = chdb.Open(ctx, shared.dir.Path, chdb.Options{
			// Repeated identical queries must not be answered from the cache
			// of an earlier test's data.
			Settings: map[string]string{"use_query_condition_cache": "0"},
		})
	})
	if shared.err != nil {
		t.Fatalf("embedded store: %v", shared.err)
	}
	if err := reuse(ctx, shared.db, &shared.schema); err != nil {
		t.Fatalf("reset store: %v", err)
	}
	return shared.db
}

// reuse empties the store for the next test. Where the schema is as the
// first migration left it, the tables are emptied and the seeds written
// (schema.Empty); a test that changed the schema (dropped a view, added a
// column, forgot a migration) gets it rebuilt by Reset.
func reuse(ctx context.Context, s arrowstore.Store, schemaFP *string) error {
	if *schemaFP != "" {
		if err := schema.Empty(ctx, s); err != nil {
			return err
		}
		fp, err := fingerprint(ctx, s)
		if err != nil {
			return err
		}
		if fp == *schemaFP {
			return nil
		}
	}
	if err := Reset(ctx, s); err != nil {
		return err
	}
	if *schemaFP == "" {
		fp, err := fingerprint(ctx, s)
		if err != nil {
			return err
		}
		*schemaFP = fp
	}
	return nil
}

// fingerprint is the store's schema: every table's definition and the
// migrations recorded.
func fingerprint(ctx context.Context, s arrowstore.Store) (string, error) {
	var b strings.Builder
	for _, q := range []string{
		// Ingest sessions' staging tables come and go (schema.IsSessionTable).
		`SELECT name, create_table_query FROM system.tables WHERE database = currentDatabase()
			AND NOT match(name, '^compressed_step_[a-z_]+_s[0-9a-f]{16}$') ORDER BY name`,
		`SELECT DISTINCT toString(version) FROM ` + schema.TableMigrations + ` ORDER BY 1`,
	} {
		res, err := s.Query(ctx, q, nil)
		if err != nil {
			return "", fmt.Errorf("schema fingerprint: %w", err)
		}
		for _, r := range res.Rows {
			for _, v := range r {
				fmt.Fprintf(&b, "%v\n", v)
			}
		}
	}
	return b.String(), nil
}

// Reset empties every table, the record of migrations included, and
// applies the migrations from scratch.
func Reset(ctx context.Context, s arrowstore.Store) error {
	if err := schema.Truncate(ctx, s); err != nil {
		return err
	}
	_, err := schema.Migrate(ctx, s)
	return err
}

// Close shuts the shared stores down; call from TestMain after m.Run.
func Close() {
	closeServer()
	if shared.db != nil {
		shared.db.Close()
		_ = chdb.Shutdown()
		shared.dir.Remove()
	}
}
