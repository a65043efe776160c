package chdb_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/store/chdb"
)

// readOnlyFixture writes a directory holding a MergeTree table of three
// unmerged parts and a key-value table, as a snapshot would hold them.
func readOnlyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := openDB(t, dir)
	ctx := context.Background()
	for _, q := range []string{
		`CREATE TABLE t (k UInt64, v String) ENGINE = ReplacingMergeTree ORDER BY k`,
		`CREATE TABLE kv (k UInt64, v String) ENGINE = EmbeddedRocksDB PRIMARY KEY k`,
		`SYSTEM STOP MERGES t`,
		`INSERT INTO t SELECT number, 'a' FROM numbers(10)`,
		`INSERT INTO t SELECT number, 'b' FROM numbers(10)`,
		`INSERT INTO t SELECT number, 'c' FROM numbers(10)`,
		`INSERT INTO kv SELECT number, 'x' FROM numbers(10)`,
	} {
		if err := db.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tableFiles lists the files under dir with their times and modes (a
// writable open at least rewrites the lock file and the engine's status).
func tableFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.ModTime().String() + " " + fi.Mode().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func count(t *testing.T, db *chdb.DB, table string) any {
	t.Helper()
	res, err := db.Query(context.Background(), `SELECT count() FROM `+table, nil)
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("count %s: %v %v", table, res, err)
	}
	return res.Rows[0][0]
}

// TestReadOnly: a read-only open reads every table, refuses every write,
// runs no merge, shares the directory with other readers, keeps a writer
// out and leaves the directory's files as they were.
func TestReadOnly(t *testing.T) {
	dir := readOnlyFixture(t)
	before := tableFiles(t, dir)
	stop, _ := hold(t, "hold-ro", dir)
	defer stop()

	ctx := context.Background()
	db, err := chdb.Open(ctx, dir, chdb.Options{PoolSize: 2, ReadOnly: true})
	if err != nil {
		t.Fatalf("second read-only open: %v", err)
	}
	if !db.ReadOnly() {
		t.Error("ReadOnly() false")
	}
	if n := count(t, db, "t FINAL"); n != uint64(10) {
		t.Errorf("t: %v rows", n)
	}
	if n := count(t, db, "kv"); n != uint64(10) {
		t.Errorf("kv: %v rows", n)
	}
	for _, q := range []string{
		`INSERT INTO t VALUES (99, 'z')`,
		`INSERT INTO kv VALUES (99, 'z')`,
		`OPTIMIZE TABLE t FINAL`,
		`ALTER TABLE t DELETE WHERE k = 1`,
		`DROP TABLE kv`,
		`CREATE TABLE u (k UInt64) ENGINE = MergeTree ORDER BY k`,
	} {
		if err := db.Exec(ctx, q, nil); err == nil || !strings.Contains(strings.ToLower(err.Error()), "readonly") {
			t.Errorf("%s: %v, want a read-only refusal", q, err)
		}
	}
	if n := count(t, db, "system.parts WHERE table = 't' AND active"); n != uint64(3) {
		t.Errorf("%v active parts, want the 3 written", n)
	}
	out, _ := child(t, "open", dir, "").Output()
	if !strings.Contains(string(out), "locked by another process") {
		t.Errorf("writer beside readers: %s", out)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	stop()
	after := tableFiles(t, dir)
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed: %q -> %q", p, v, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s written by a read-only open", p)
		}
	}
}

// TestReadOnlyBesideWriter: a read-only open needs no writer on the
// directory.
func TestReadOnlyBesideWriter(t *testing.T) {
	dir := t.TempDir()
	stop, _ := hold(t, "hold", dir)
	defer stop()
	_, err := chdb.Open(context.Background(), dir, chdb.Options{PoolSize: 1, ReadOnly: true})
	if !errors.Is(err, chdb.ErrLocked) || !strings.Contains(err.Error(), "being written") {
		t.Fatalf("err = %v, want ErrLocked naming the writer", err)
	}
}

// TestReadOnlyFilesystem: a directory on a read-only mount opens
// read-only by itself. It needs bind mounts (root with CAP_SYS_ADMIN).
func TestReadOnlyFilesystem(t *testing.T) {
	dir := readOnlyFixture(t)
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, mnt).CombinedOutput(); err != nil {
		t.Skipf("no bind mount here: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", mnt).CombinedOutput(); err != nil {
		t.Skipf("no read-only remount here: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(mnt, "probe"), nil, 0o644); err == nil {
		t.Skip("the mount is writable (running with privileges that ignore it)")
	}
	ctx := context.Background()
	db, err := chdb.Open(ctx, mnt, chdb.Options{PoolSize: 1})
	if err != nil {
		t.Fatalf("open on a read-only mount: %v", err)
	}
	defer db.Close()
	if !db.ReadOnly() {
		t.Error("not opened read-only")
	}
	if n := count(t, db, "t FINAL"); n != uint64(10) {
		t.Errorf("t: %v rows", n)
	}
	if n := count(t, db, "kv"); n != uint64(10) {
		t.Errorf("kv: %v rows", n)
	}
}
