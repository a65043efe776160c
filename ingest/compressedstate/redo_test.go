package compressedstate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// TestUnfinishedStepIsRedone stores a step's ledger markers without its
// balance writes, as a step failing between the two leaves them: the next
// step, in a new process, first redoes those writes from the markers, so
// the balances and holders equal an uninterrupted run's and no event is
// counted twice or lost. The markers are where the step writes them, or
// where steps wrote them before migration 22 (whole events in
// token_ledger, beside every output), which migration 22 carries over
// and migration 24 clears the outputs from.
func TestUnfinishedStepIsRedone(t *testing.T) {
	for _, old := range []bool{false, true} {
		name := "markers"
		if old {
			name = "markers before migration 22"
		}
		t.Run(name, func(t *testing.T) {
			s := storetest.Open(t)
			ctx := context.Background()
			index(t, s, paths(listed...), ingest.Config{})
			want := snapshot(t, s)
			last := rows(t, s, `SELECT max(version) FROM compressed_step_versions`)[0]
			for _, q := range []string{
				`ALTER TABLE token_balances DELETE WHERE version = ` + last,
				`ALTER TABLE mint_holders DELETE WHERE version = ` + last,
				`ALTER TABLE compressed_step_versions DELETE WHERE version = ` + last,
			} {
				if err := s.Exec(ctx, q+` SETTINGS mutations_sync = 2`, nil); err != nil {
					t.Fatal(err)
				}
			}
			if old {
				execAll(t, s, oldMarkers...)
				reapply(t, s, "narrow_markers")
				reapply(t, s, "ledger_spends_only")
			}
			if got := rows(t, s, sqlUnfinished); !slices.Equal(got, []string{last}) {
				t.Fatalf("unfinished version %v, want %s", got, last)
			}
			if got := snapshot(t, s); got["token_balances"] == want["token_balances"] {
				t.Fatal("deleting the last step's writes changed no balance: the test checks nothing")
			}
			// A new step object stands for a new process; its range is the last
			// slot again, whose events are all marked: only the redo changes state.
			if err := NewStateStep().Apply(ctx, s, 43, 43); err != nil {
				t.Fatal(err)
			}
			sameAnswers(t, "redone", want, snapshot(t, s))
			checkLedger(t, s, nil)
			if got := rows(t, s, sqlUnfinished); !slices.Equal(got, []string{"0"}) {
				t.Errorf("unfinished version %v after the redo", got)
			}
		})
	}
}

// oldMarkers puts the ledger back as steps left it before migration 22:
// every output in it (as token_ledger_outputs_mv wrote them until
// migration 24), and each counted event written again whole, with the
// step's version as applied (a spend with its account's token fields).
var oldMarkers = []string{
	`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
		SELECT slot_created, hash, 0, true, token_owner, mint, amount, 0 FROM compressed_accounts WHERE is_token`,
	`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
		SELECT m.slot, m.hash, 0, true, a.token_owner, a.mint, a.amount, m.applied
		FROM (SELECT * FROM token_ledger_applied WHERE kind = 0) AS m
		INNER JOIN (SELECT * FROM compressed_accounts LIMIT 1 BY hash) AS a USING (hash)`,
	`INSERT INTO token_ledger (slot, hash, kind, token, owner, mint, amount, applied)
		SELECT m.slot, m.hash, 1, a.is_token, a.token_owner, a.mint, a.amount, m.applied
		FROM (SELECT * FROM token_ledger_applied WHERE kind = 1) AS m
		INNER JOIN (SELECT * FROM compressed_accounts LIMIT 1 BY hash) AS a USING (hash)`,
	`TRUNCATE TABLE token_ledger_applied`,
}

// TestLedgerCarryOver runs migration 6 over state stored before it, with
// no ledger and stale balances and holders: it rebuilds them from the
// accounts and marks every stored event as counted in the ledger, where
// markers were kept until migration 22, which carries them over to
// token_ledger_applied. Stepping the whole range again changes nothing.
func TestLedgerCarryOver(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	for _, table := range []string{"token_ledger", schema.TableTokenLedgerApplied, "compressed_step_versions", "token_balances", "mint_holders"} {
		if err := s.Exec(ctx, "TRUNCATE TABLE "+table, nil); err != nil {
			t.Fatal(err)
		}
	}
	reapply(t, s, "compressed_ledger")
	reapply(t, s, "narrow_markers")
	reapply(t, s, "ledger_spends_only")
	sameAnswers(t, "carried over", want, snapshot(t, s))
	counts := rowCounts(t, s)
	if err := NewStateStep().Apply(ctx, s, 40, 43); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "stepped again", want, snapshot(t, s))
	if got := rowCounts(t, s); got != counts {
		t.Errorf("stepping carried-over events wrote versions: %s rows, want %s", got, counts)
	}
	if got := rows(t, s, `SELECT count() FROM token_ledger FINAL WHERE applied = 0`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("uncounted events after the carry-over: %v", got)
	}
}

// accountColumns are the columns compressed_accounts shares with the
// derived account tables.
const accountColumns = `hash, tree, queue, tree_type, leaf_index, seq, in_output_queue, slot_created,
	owner, lamports, address, discriminator, data, data_hash,
	is_token, mint, token_owner, amount, delegate, token_state, tlv`

// TestOwnerTokensCarryOver applies migration 7 over a store indexed
// before it (token rows in compressed_by_owner, the view copying them),
// twice: the token rows leave the table, the view stops copying them, and
// every answer stays the same.
func TestOwnerTokensCarryOver(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	execAll(t, s,
		`DROP VIEW compressed_by_owner_mv`,
		`CREATE MATERIALIZED VIEW compressed_by_owner_mv TO compressed_by_owner AS
			SELECT `+accountColumns+`, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts`,
		`INSERT INTO compressed_by_owner (`+accountColumns+`, spent, spent_slot)
			SELECT `+accountColumns+`, hash IN (SELECT hash FROM compressed_spent), 0 FROM compressed_accounts`)
	if got := rows(t, s, `SELECT count() > 0 FROM compressed_by_owner WHERE is_token`); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("pre-migration state has no token rows by owner: %v", got)
	}
	reapply(t, s, "token_rows_not_by_owner")
	if got := rows(t, s, `SELECT count() FROM compressed_by_owner WHERE is_token`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("token rows by owner after the migration: %v", got)
	}
	sameAnswers(t, "migrated", want, snapshot(t, s))
	index(t, s, paths(listed...), ingest.Config{}) // re-ingest through the new view
	if got := rows(t, s, `SELECT count() FROM compressed_by_owner WHERE is_token`); !slices.Equal(got, []string{"0"}) {
		t.Errorf("token rows by owner after re-ingesting: %v", got)
	}
}

// TestReadPathsDropSignature applies migration 15 over a store indexed
// before it (the three read paths with a signature column their views
// fill), twice: the column leaves every read path, every answer is the one
// of a store indexed on the new schema, and the new views take the same
// transactions again. compressed_accounts no longer holds the signature
// since migration 19: the old views fill the column from its prefix.
func TestReadPathsDropSignature(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	s = storetest.Open(t)
	views := []struct{ view, table, sql string }{
		{"compressed_by_owner_mv", "compressed_by_owner", `SELECT ` + accountColumns +
			`, toFixedString(sig_prefix, 64) AS signature, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE NOT is_token`},
		{"token_accounts_mv", "token_accounts", `SELECT ` + accountColumns +
			`, toFixedString(sig_prefix, 64) AS signature, false AS spent, toUInt64(0) AS spent_slot FROM compressed_accounts WHERE is_token`},
		{"token_accounts_by_delegate_mv", "token_accounts_by_delegate", `SELECT ` + accountColumns +
			`, toFixedString(sig_prefix, 64) AS signature, assumeNotNull(delegate) AS delegate_key, false AS spent, toUInt64(0) AS spent_slot
			FROM compressed_accounts WHERE is_token AND delegate IS NOT NULL`},
	}
	for _, v := range views {
		execAll(t, s, `DROP VIEW `+v.view,
			`ALTER TABLE `+v.table+` ADD COLUMN signature FixedString(64) AFTER slot_created`,
			`CREATE MATERIALIZED VIEW `+v.view+` TO `+v.table+` AS `+v.sql)
	}
	index(t, s, paths(listed...), ingest.Config{})
	if got := rows(t, s, `SELECT countIf(signature != toFixedString('', 64)) > 0 FROM token_accounts`); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("pre-migration token_accounts holds no signatures: %v", got)
	}
	reapply(t, s, "read_paths_without_signature")
	cols := `SELECT table FROM system.columns WHERE database = currentDatabase() AND name = 'signature'
		AND table IN ('compressed_accounts', 'compressed_by_owner', 'token_accounts', 'token_accounts_by_delegate')`
	if got := rows(t, s, cols); len(got) != 0 {
		t.Errorf("tables with a signature after the migration: %v, want none", got)
	}
	sameAnswers(t, "migrated", want, snapshot(t, s))
	before := rows(t, s, `SELECT count() FROM token_accounts`)
	index(t, s, paths(listed...), ingest.Config{}) // re-ingest through the new views
	sameAnswers(t, "re-indexed", want, snapshot(t, s))
	if after := rows(t, s, `SELECT count() FROM token_accounts`); slices.Equal(after, before) {
		t.Errorf("re-ingesting wrote no token_accounts rows through the new view (%v)", after)
	}
}

// TestMarkersFoldUnmerged keeps the parts of compressed_accounts, the
// ledger and its markers unmerged, so re-indexed copies of an output or
// a spend, and an event and its marker, sit in different parts: stepping
// the range again, re-indexing the same transactions, and indexing them
// twice before the one step over their range (both copies unmarked) must
// count nothing twice. The last fails without FINAL in sqlOutputEvents.
func TestMarkersFoldUnmerged(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	tables := []string{schema.TableCompressed, schema.TableTokenLedger, schema.TableTokenLedgerApplied}
	stopMerges(t, s, tables...)
	index(t, s, paths(listed...), ingest.Config{})
	want, counts := snapshot(t, s), rowCounts(t, s)
	if err := NewStateStep().Apply(ctx, s, 40, 43); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "stepped again", want, snapshot(t, s))
	if got := rowCounts(t, s); got != counts {
		t.Errorf("stepping counted events again: %s rows, want %s", got, counts)
	}
	index(t, s, paths(listed...), ingest.Config{})
	if got := rows(t, s, `SELECT (SELECT count() > uniqExact(hash) FROM compressed_accounts WHERE is_token),
		(SELECT count() > uniqExact(slot, hash) FROM token_ledger)`); !slices.Equal(got, []string{"1 1"}) {
		t.Fatalf("outputs, spends stored twice: %v, want 1 1: the test needs re-indexed copies apart", got)
	}
	sameAnswers(t, "re-indexed", want, snapshot(t, s))

	// The same transactions indexed twice before any step: both copies
	// are unmarked when the one step over their range lists its events.
	s = storetest.Open(t)
	stopMerges(t, s, tables...)
	for range 2 {
		cfg := ingest.Config{Store: s, Source: source.NewFileList(paths(listed...))}
		if err := Configure(ctx, s, &cfg); err != nil {
			t.Fatal(err)
		}
		cfg.Steps = nil
		if _, err := ingest.Run(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := NewStateStep().Apply(ctx, s, 40, 43); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "indexed twice, then stepped", want, snapshot(t, s))
}

// reapply runs the named migration's statements twice over the store, as
// an interrupted migration is applied again from the start.
func reapply(t *testing.T, s arrowstore.Writer, name string) {
	t.Helper()
	for _, m := range schema.Migrations() {
		if m.Name == name {
			execAll(t, s, m.Statements...)
			execAll(t, s, m.Statements...)
			return
		}
	}
	t.Fatalf("no migration %q", name)
}

func execAll(t *testing.T, s arrowstore.Writer, stmts ...string) {
	t.Helper()
	for _, stmt := range stmts {
		if err := s.Exec(context.Background(), stmt, nil); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// TestSignaturePrefixesMigration applies migrations 18 and 19, each twice
// (as an interrupted run would), over a store in the layout before them:
// compressed_accounts with the whole signature and the owner signature
// tables. Every answer is the one of a store indexed on the new schema,
// and the replaced column and tables are gone.
func TestSignaturePrefixesMigration(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	s = storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	oldOwnerTable := func(name, from string) []string {
		return []string{
			`CREATE TABLE ` + name + ` (owner FixedString(32), slot UInt64, signature FixedString(64), block_time Int64)
				ENGINE = ReplacingMergeTree ORDER BY (owner, slot, signature)`,
			`INSERT INTO ` + name + ` SELECT o.owner, o.slot, c.signature, c.block_time FROM ` + from + ` AS o
				INNER JOIN compression_signatures AS c ON c.slot = o.slot AND ` + schema.SigPrefix("c.signature") + ` = o.sig_prefix`,
			`DROP TABLE ` + from,
		}
	}
	// A mutation runs without a current database: joinGet names it.
	sigs := rows(t, s, `SELECT currentDatabase()`)[0] + `.old_sigs`
	execAll(t, s, `CREATE TABLE old_sigs ENGINE = Join(ANY, LEFT, slot, sig_prefix) AS
			SELECT slot, `+schema.SigPrefixOfSignature+` AS sig_prefix, signature FROM compression_signatures`,
		`ALTER TABLE compressed_accounts ADD COLUMN signature FixedString(64) AFTER slot_created`,
		`ALTER TABLE compressed_accounts UPDATE signature = joinGet('`+sigs+`', 'signature', slot_created, sig_prefix)
			WHERE true SETTINGS mutations_sync = 2`,
		`ALTER TABLE compressed_accounts DROP COLUMN sig_prefix`, `DROP TABLE old_sigs`)
	execAll(t, s, oldOwnerTable("owner_signatures", "owner_txs")...)
	execAll(t, s, oldOwnerTable("token_owner_signatures", "token_owner_txs")...)
	if got := rows(t, s, `SELECT countIf(signature = toFixedString('', 64)) FROM compressed_accounts`); !slices.Equal(got, []string{"0"}) {
		t.Fatalf("pre-migration compressed_accounts rows without a signature: %v", got)
	}
	if got := rows(t, s, `SELECT count() > 0 FROM token_owner_signatures`); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("pre-migration token_owner_signatures is empty: %v", got)
	}
	reapply(t, s, "signature_prefixes")
	reapply(t, s, "drop_full_signatures")
	sameAnswers(t, "migrated", want, snapshot(t, s))
	gone := `SELECT name FROM system.tables WHERE database = currentDatabase()
		AND name IN ('owner_signatures', 'token_owner_signatures')
		UNION ALL SELECT table FROM system.columns WHERE database = currentDatabase()
		AND table = 'compressed_accounts' AND name = 'signature'`
	if got := rows(t, s, gone); len(got) != 0 {
		t.Errorf("left after the migrations: %v", got)
	}
}

// TestAccountGranulesMigration puts compressed_accounts back in its shape
// before migration 21 (8,192-row granules) and indexes half the fixtures,
// then applies the migration twice (as an interrupted run would) and
// indexes them all: the views write through the rebuilt table, and every
// answer is the one of a store indexed in one go.
func TestAccountGranulesMigration(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	s = storetest.Open(t)
	var old []string
	for _, m := range schema.Migrations() {
		if m.Name == "account_granules" {
			for _, stmt := range m.Statements {
				old = append(old, strings.ReplaceAll(stmt, "index_granularity = 1024", "index_granularity = 8192"))
			}
		}
	}
	granularity := func(want string) {
		t.Helper()
		got := rows(t, s, `SELECT extract(create_table_query, 'index_granularity = (\\d+)') FROM system.tables
			WHERE database = currentDatabase() AND name = 'compressed_accounts'`)
		if !slices.Equal(got, []string{want}) {
			t.Fatalf("compressed_accounts granularity %v, want %s", got, want)
		}
	}
	execAll(t, s, old...)
	granularity("8192")
	index(t, s, paths(listed[:2]...), ingest.Config{})
	reapply(t, s, "account_granules")
	granularity("1024")
	index(t, s, paths(listed...), ingest.Config{})
	sameAnswers(t, "migrated", want, snapshot(t, s))
	// The views on compressed_accounts, checked by name: the store of want
	// was migrated by the same statements.
	views := rows(t, s, `SELECT name FROM system.tables WHERE database = currentDatabase()
		AND engine = 'MaterializedView' AND create_table_query LIKE '%FROM ' || currentDatabase() || '.compressed_accounts %' ORDER BY name`)
	if want := []string{"compressed_by_owner_mv", "token_accounts_by_delegate_mv", "token_accounts_mv", "token_ledger_outputs_mv"}; !slices.Equal(views, want) {
		t.Errorf("views on compressed_accounts %v, want %v", views, want)
	}
	if got := rows(t, s, `SELECT (SELECT count() > 0 FROM token_accounts), (SELECT count() > 0 FROM token_ledger WHERE kind = 0)`); !slices.Equal(got, []string{"1 1"}) {
		t.Errorf("token accounts and ledger outputs written through the views: %v", got)
	}
	// Migration 24 comes after, as on every store.
	reapply(t, s, "ledger_spends_only")
	index(t, s, paths(listed...), ingest.Config{})
	sameAnswers(t, "migrated to 24", want, snapshot(t, s))
}

// TestLedgerSpendsOnly indexes half the fixtures into a store in its shape
// before migration 24 (token_ledger_outputs_mv writing every token output
// into the ledger), applies the migration twice and indexes them all:
// the view and the outputs are gone, the spends stay, the marked events
// still sum to the balances (ledgerBalances, as docs/schema.md gives it),
// and every answer is the one of a store indexed in one go.
func TestLedgerSpendsOnly(t *testing.T) {
	s := storetest.Open(t)
	index(t, s, paths(listed...), ingest.Config{})
	want := snapshot(t, s)
	s = storetest.Open(t)
	// Migration 21 makes the views on compressed_accounts as they stood
	// before 24, the outputs' view among them.
	reapply(t, s, "account_granules")
	index(t, s, paths(listed[:2]...), ingest.Config{})
	if got := rows(t, s, `SELECT count() > 0 FROM token_ledger WHERE kind = 0`); !slices.Equal(got, []string{"1"}) {
		t.Fatal("the old view wrote no output into the ledger: the test checks nothing")
	}
	reapply(t, s, "ledger_spends_only")
	index(t, s, paths(listed...), ingest.Config{})
	sameAnswers(t, "migrated", want, snapshot(t, s))
	checkLedger(t, s, nil)
	summed := rows(t, s, `SELECT base58Encode(owner), base58Encode(mint), balance FROM (`+ledgerBalances+`) ORDER BY owner, mint`)
	stored := rows(t, s, `SELECT base58Encode(owner), base58Encode(mint), balance FROM token_balances FINAL ORDER BY owner, mint`)
	if len(stored) == 0 || !slices.Equal(summed, stored) {
		t.Errorf("balances summed from the marked events:\n%q\nstored:\n%q", summed, stored)
	}
	if got := rows(t, s, `SELECT (SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'token_ledger_outputs_mv'),
		(SELECT count() FROM token_ledger WHERE kind = 0), (SELECT count() > 0 FROM token_ledger WHERE kind = 1)`); !slices.Equal(got, []string{"0 0 1"}) {
		t.Errorf("view, outputs and spends in the ledger after the migration: %v, want 0 0 1", got)
	}
}

// TestOutputEventsReadOwnRange checks what the step's listing of a
// range's outputs reads: with the fixtures indexed in two runs, merges
// stopped, the last slot's outputs sit in a part of their own, and the
// listing reads that part only. With the engine's exact mode for skip
// indexes under FINAL, their random hashes met every part's key range and
// the listing read every granule of the table (a live slot at 20M
// accounts: 192 ms). No index condition may use the markers' set, which
// the engine checked against every granule (sqlOutputEvents).
func TestOutputEventsReadOwnRange(t *testing.T) {
	s := storetest.Open(t)
	stopMerges(t, s, schema.TableCompressed)
	index(t, s, paths(listed[:3]...), ingest.Config{})
	index(t, s, paths(listed[3:]...), ingest.Config{})
	if got := rows(t, s, `SELECT count() > 1, countIf(max_slot = 43) FROM (SELECT _part, max(slot_created) AS max_slot
		FROM compressed_accounts GROUP BY _part)`); !slices.Equal(got, []string{"1 1"}) {
		t.Fatalf("parts of compressed_accounts (several, one with slot 43): %v: the test needs them apart", got)
	}
	sel := sqlOutputEvents[strings.Index(sqlOutputEvents, "\nSELECT ")+1:]
	var read, setConds []string
	for _, r := range query(t, s, "EXPLAIN indexes = 1 "+sel, store.Params{"from": "43", "to": "43"}) {
		l := strings.TrimSpace(fmt.Sprint(r[0]))
		if strings.HasPrefix(l, "Parts: ") && strings.Contains(l, "| Granules:") {
			read = append(read, l)
		}
		// The markers' set in an index condition: checked against every
		// granule of the table (see sqlOutputEvents).
		if strings.HasPrefix(l, "Condition: ") && strings.Contains(l, "notIn") {
			setConds = append(setConds, l)
		}
	}
	if len(setConds) > 0 {
		t.Errorf("the listing's index conditions use the markers' set: %q", setConds)
	}
	// The first such line is compressed_accounts' read.
	if len(read) == 0 || read[0] != "Parts: 1 | Granules: 1" {
		t.Errorf("the listing of slot 43's outputs reads %q of compressed_accounts, want one part, one granule", read)
	}
}
