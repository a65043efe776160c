package schema_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.Close()
	os.Exit(code)
}

func TestMigrateIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t) // already migrated once
	for i := 0; i < 2; i++ {
		n, err := schema.Migrate(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("run %d applied %d migrations, want 0", i, n)
		}
	}
	res, err := s.Query(ctx, "SELECT count() FROM schema_migrations FINAL", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0].(uint64); got != uint64(len(schema.Migrations())) {
		t.Fatalf("schema_migrations rows = %d, want %d", got, len(schema.Migrations()))
	}
	for _, table := range []string{schema.TableBlocks, schema.TableTxs, schema.TableAccounts, schema.TableAccByOwner,
		schema.TableProjects, schema.TableKeys, schema.TableDeadLetters, schema.TableCheckpoints} {
		res, err := s.Query(ctx, "SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = {t:String}", store.Params{"t": table})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows[0][0].(uint64) != 1 {
			t.Errorf("table %s missing", table)
		}
	}
}

func TestMigrateReappliesAfterPartialFailure(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	// Forget the record but keep the tables: statements must tolerate that.
	if err := s.Exec(ctx, "TRUNCATE TABLE schema_migrations", nil); err != nil {
		t.Fatal(err)
	}
	n, err := schema.Migrate(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(schema.Migrations()) {
		t.Fatalf("applied %d, want %d", n, len(schema.Migrations()))
	}
}

func TestAccountsKeepNewestVersion(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	// Newest (slot, write_version) wins whatever the insert order.
	ins := `INSERT INTO accounts (pubkey, owner, lamports, data, executable, rent_epoch, slot, write_version) VALUES
		('k', 'o', 3, '', false, 0, 10, 2), ('k', 'o', 1, '', false, 0, 9, 99), ('k', 'p', 2, '', false, 0, 10, 1)`
	if err := s.Exec(ctx, ins, nil); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, "SELECT lamports, trim(TRAILING '\\0' FROM owner) FROM accounts FINAL", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0].(uint64) != 3 || res.Rows[0][1].(string) != "o" {
		t.Fatalf("rows = %v", res.Rows)
	}
}

// TestRawColumns checks every column of migration 12 is stored without
// compression and every other column of those tables keeps the default.
func TestRawColumns(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	raw := map[string]bool{}
	tables := map[string]bool{}
	for _, c := range schema.RawColumns() {
		raw[c] = true
		tables[strings.SplitN(c, ".", 2)[0]] = true
	}
	res, err := s.Query(ctx, `SELECT table, name, compression_codec FROM system.columns
		WHERE database = currentDatabase() ORDER BY table, name`, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range res.Rows {
		table, name, codec := r[0].(string), r[1].(string), r[2].(string)
		if !tables[table] {
			continue
		}
		want := ""
		if raw[table+"."+name] {
			want = "CODEC(NONE)"
			seen++
		}
		if codec != want {
			t.Errorf("%s.%s codec %q, want %q", table, name, codec, want)
		}
	}
	if seen != len(raw) {
		t.Errorf("found %d of the %d raw columns", seen, len(raw))
	}
}

// TestSpentPendingFill upgrades a store holding a spend of an indexed
// account and a spend of one not indexed: migration 13 lists only the
// second as pending.
func TestSpentPendingFill(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for _, stmt := range []string{
		`INSERT INTO compressed_accounts (hash, slot_created) VALUES ('indexed', 5)`,
		`INSERT INTO compressed_spent (hash, slot) VALUES ('indexed', 6), ('missing', 6), ('missing', 7)`,
		// As a store before migration 13: no list, no record of it.
		`DROP TABLE ` + schema.TableSpentPending,
		`ALTER TABLE schema_migrations DELETE WHERE version >= 13 SETTINGS mutations_sync = 2`,
	} {
		if err := s.Exec(ctx, stmt, nil); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := schema.Migrate(ctx, s); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, `SELECT spend_slot, trim(TRAILING '\0' FROM hash), resolved FROM `+schema.TableSpentPending, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != uint64(6) || res.Rows[0][1] != "missing" || res.Rows[0][2] != uint8(0) {
		t.Fatalf("pending = %v, want [[6 missing 0]]", res.Rows)
	}
}

// TestPendingSlot upgrades a store whose pending list is keyed by hash
// alone (migration 13): migration 14 keeps every listed spend, resolved
// or not, under the first slot it was spent at, and its key puts the
// spend's slot first.
func TestPendingSlot(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	for _, stmt := range []string{
		`DROP TABLE ` + schema.TableSpentPending,
		// Migration 13's layout.
		`CREATE TABLE ` + schema.TableSpentPending + ` (hash FixedString(32) CODEC(NONE), resolved UInt8, resolved_slot UInt64)
			ENGINE = ReplacingMergeTree(resolved) ORDER BY hash`,
		`INSERT INTO compressed_spent (hash, slot) VALUES ('open', 9), ('open', 8), ('done', 12), ('other', 3)`,
		`INSERT INTO ` + schema.TableSpentPending + ` VALUES ('open', 0, 0), ('done', 0, 0)`,
		`INSERT INTO ` + schema.TableSpentPending + ` VALUES ('done', 1, 11)`,
		`ALTER TABLE schema_migrations DELETE WHERE version >= 14 SETTINGS mutations_sync = 2`,
	} {
		if err := s.Exec(ctx, stmt, nil); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := schema.Migrate(ctx, s); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, `SELECT spend_slot, trim(TRAILING '\0' FROM hash), resolved, resolved_slot
		FROM `+schema.TableSpentPending+` FINAL ORDER BY spend_slot`, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(res.Rows)
	if want := "[[8 open 0 0] [12 done 1 11]]"; got != want {
		t.Fatalf("pending = %s, want %s", got, want)
	}
	if res, err = s.Query(ctx, `SELECT sorting_key FROM system.tables
		WHERE database = currentDatabase() AND name = {t:String}`, store.Params{"t": schema.TableSpentPending}); err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0]; got != "spend_slot, hash" {
		t.Fatalf("sorting key %q, want spend_slot, hash", got)
	}
}

// TestMergeBase: migrations 17 and 25 widen the merges of the tables the
// ingest writes most, and leave the others at the engine's default.
func TestMergeBase(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	setting := fmt.Sprintf("merge_selector_base = %d", schema.MergeBase)
	engine := func(table string) string {
		res, err := s.Query(ctx, `SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = {t:String}`,
			store.Params{"t": table})
		if err != nil || len(res.Rows) != 1 {
			t.Fatalf("%s: %v rows, %v", table, res, err)
		}
		return res.Rows[0][0].(string)
	}
	for _, table := range schema.MergeBaseTables() {
		if e := engine(table); !strings.Contains(e, setting) {
			t.Errorf("%s: %q lacks %s", table, e, setting)
		}
	}
	res, err := s.Query(ctx, `SELECT name, engine_full FROM system.tables WHERE database = currentDatabase()
		AND engine LIKE '%MergeTree' AND engine_full LIKE '%merge_selector_base%' AND name NOT IN {wide:Array(String)}`,
		store.Params{"wide": "['" + strings.Join(schema.MergeBaseTables(), "','") + "']"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		t.Errorf("%s: %q sets merge_selector_base", r[0], r[1])
	}
}

// SigPrefixOfSignature is SigPrefix written out as a constant (statements
// built from constants use it): the two must not drift apart.
func TestSigPrefixConstant(t *testing.T) {
	if got := schema.SigPrefix("signature"); got != schema.SigPrefixOfSignature {
		t.Fatalf("SigPrefix(\"signature\") = %s, SigPrefixOfSignature = %s", got, schema.SigPrefixOfSignature)
	}
}

// tableCounts counts the rows of every table of the store.
func tableCounts(t *testing.T, s arrowstore.Store) map[string]uint64 {
	t.Helper()
	ctx := context.Background()
	res, err := s.Query(ctx, `SELECT name FROM system.tables
		WHERE database = currentDatabase() AND engine NOT IN ('MaterializedView', 'View') ORDER BY name`, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, r := range res.Rows {
		name := r[0].(string)
		c, err := s.Query(ctx, "SELECT count() FROM `"+name+"`", nil)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = c.Rows[0][0].(uint64)
	}
	return out
}

// TestEmptyLeavesFreshStore: a store emptied by Empty holds the rows a
// migration from scratch leaves (its seeds), whatever was written, and
// keeps the tables it is told to keep.
func TestEmptyLeavesFreshStore(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	// From scratch: every table emptied, the record of migrations too.
	for name := range tableCounts(t, s) {
		if err := s.Exec(ctx, "TRUNCATE TABLE `"+name+"`", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := schema.Migrate(ctx, s); err != nil {
		t.Fatal(err)
	}
	fresh := tableCounts(t, s)
	if fresh["compressed_step_versions"] == 0 {
		t.Fatal("no seed row after the migrations: the test checks nothing")
	}
	for _, stmt := range []string{
		`INSERT INTO accounts (pubkey, owner, lamports, data, executable, rent_epoch, slot, write_version) VALUES ('k', 'o', 3, '', false, 0, 10, 2)`,
		`INSERT INTO compressed_step_versions (version) VALUES (2), (3)`,
		`INSERT INTO compressed_accounts (hash, slot_created) VALUES ('a', 5)`,
		`INSERT INTO compressed_step_deltas (owner, mint, pair, delta) VALUES ('o', 'm', 'p', 1)`,
		`INSERT INTO ` + schema.TableProjects + ` (id, name) VALUES ('p', 'kept')`,
	} {
		if err := s.Exec(ctx, stmt, nil); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if err := schema.Empty(ctx, s, schema.TableProjects); err != nil {
		t.Fatal(err)
	}
	got := tableCounts(t, s)
	for name, n := range fresh {
		want := n
		if name == schema.TableProjects {
			want = n + 1
		}
		if got[name] != want {
			t.Errorf("%s: %d rows after Empty, want %d", name, got[name], want)
		}
	}
}

// TestCheck: a store holding every migration passes; one lacking the
// newest is named.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	s := storetest.Open(t)
	if err := schema.Check(ctx, s); err != nil {
		t.Fatalf("migrated store: %v", err)
	}
	latest := strconv.FormatUint(uint64(schema.Latest()), 10)
	if err := s.Exec(ctx, "DELETE FROM schema_migrations WHERE version = "+latest, nil); err != nil {
		t.Fatal(err)
	}
	err := schema.Check(ctx, s)
	if err == nil || !strings.Contains(err.Error(), "lacks migration "+latest) {
		t.Fatalf("store without migration %s: %v", latest, err)
	}
}
