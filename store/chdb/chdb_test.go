package chdb_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/chdb"
)

// The test binary doubles as a child process for the tests that need a
// second process (the engine allows one data directory per process).
func TestMain(m *testing.M) {
	switch os.Getenv("DASCH_CHDB_CHILD") {
	case "hold":
		db, err := chdb.Open(context.Background(), os.Getenv("DASCH_CHDB_DIR_ARG"), chdb.Options{PoolSize: 1})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		db.Close()
		os.Exit(0)
	case "hold-ro":
		db, err := chdb.Open(context.Background(), os.Getenv("DASCH_CHDB_DIR_ARG"), chdb.Options{PoolSize: 1, ReadOnly: true})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		db.Close()
		os.Exit(0)
	case "allocator":
		fmt.Println(allocatorOptions(os.Getenv("DASCH_CHDB_DIR_ARG"), os.Getenv("DASCH_CHDB_ALLOC_ARG")))
		os.Exit(0)
	case "open":
		_, err := chdb.Open(context.Background(), os.Getenv("DASCH_CHDB_DIR_ARG"), chdb.Options{PoolSize: 1, LibPath: os.Getenv("DASCH_CHDB_LIB_ARG")})
		fmt.Println("error:", err)
		os.Exit(0)
	}
	code := m.Run()
	_ = chdb.Shutdown()
	os.Exit(code)
}

func openDB(t *testing.T, dir string) *chdb.DB {
	t.Helper()
	db, err := chdb.Open(context.Background(), dir, chdb.Options{PoolSize: 2})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return db
}

func key(b byte) []byte {
	k := make([]byte, 32)
	k[0], k[31] = b, 0 // trailing zero byte must survive
	k[7] = 0xff
	return k
}

func TestInsertQueryRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	defer db.Close()
	if err := db.Exec(ctx, `CREATE TABLE rt (k FixedString(32), u UInt64, s String, n Nullable(String), i Int64, ns Nullable(UInt64), l Array(UInt32)) ENGINE = MergeTree ORDER BY k`, nil); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: &arrow.FixedSizeBinaryType{ByteWidth: 32}},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ns", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint32)},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	rows := []struct {
		k  []byte
		u  uint64
		s  string
		n  *string
		i  int64
		ns *uint64
		l  []uint32
	}{
		{key(1), 1<<64 - 1, "héllo, 'world'\\\n\x00", nil, -1 << 63, nil, []uint32{1, 2, 3}},
		{key(2), 1<<63 + 5, "", ptr("x"), 42, ptr(uint64(1<<64 - 2)), nil},
	}
	for _, r := range rows {
		b.Field(0).(*array.FixedSizeBinaryBuilder).Append(r.k)
		b.Field(1).(*array.Uint64Builder).Append(r.u)
		b.Field(2).(*array.StringBuilder).Append(r.s)
		if r.n == nil {
			b.Field(3).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(*r.n)
		}
		b.Field(4).(*array.Int64Builder).Append(r.i)
		if r.ns == nil {
			b.Field(5).(*array.Uint64Builder).AppendNull()
		} else {
			b.Field(5).(*array.Uint64Builder).Append(*r.ns)
		}
		lb := b.Field(6).(*array.ListBuilder)
		lb.Append(true)
		for _, v := range r.l {
			lb.ValueBuilder().(*array.Uint32Builder).Append(v)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := db.Insert(ctx, "rt", rec); err != nil {
		t.Fatal(err)
	}
	res, err := db.Query(ctx, `SELECT k, u, s, n, i, ns, l, toUInt128(u) * 2 AS big FROM rt ORDER BY k`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 {
		t.Fatalf("rows = %d, want 2", len(res.Rows))
	}
	for i, r := range rows {
		got := res.Rows[i]
		if got[0].(string) != string(r.k) || got[1].(uint64) != r.u || got[2].(string) != r.s || got[4].(int64) != r.i {
			t.Errorf("row %d = %q", i, got)
		}
		if (r.n == nil) != (got[3] == nil) || r.n != nil && got[3].(string) != *r.n {
			t.Errorf("row %d nullable string = %v", i, got[3])
		}
		if (r.ns == nil) != (got[5] == nil) || r.ns != nil && got[5].(uint64) != *r.ns {
			t.Errorf("row %d nullable u64 = %v", i, got[5])
		}
		if l := got[6].([]any); len(l) != len(r.l) {
			t.Errorf("row %d list = %v", i, l)
		}
		want := new(big.Int).Mul(new(big.Int).SetUint64(r.u), big.NewInt(2))
		if got[7].(*big.Int).Cmp(want) != 0 {
			t.Errorf("row %d u128 = %v, want %v", i, got[7], want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestParamsAreNotInterpolated(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	defer db.Close()
	evil := "x'); DROP TABLE t; --\\ \t\n\x00 tail"
	res, err := db.Query(ctx, `SELECT {s:String} AS s, {u:UInt64} AS u, length({s:String}) AS n`, store.Params{"s": evil, "u": "18446744073709551615"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0].(string); got != evil {
		t.Errorf("s = %q, want %q", got, evil)
	}
	if res.Rows[0][1].(uint64) != 1<<64-1 {
		t.Errorf("u = %v", res.Rows[0][1])
	}
	if _, err := db.Query(ctx, `SELECT {u:UInt64}`, store.Params{"u": "not a number"}); err == nil {
		t.Error("bad UInt64 param accepted")
	}
}

func TestBadSQLIsQueryError(t *testing.T) {
	db := openDB(t, t.TempDir())
	defer db.Close()
	for _, sql := range []string{"SELEC 1", "SELECT * FROM no_such_table"} {
		_, err := db.Query(context.Background(), sql, nil)
		var qe *store.QueryError
		if !errors.As(err, &qe) {
			t.Fatalf("%s: err = %v, want *store.QueryError", sql, err)
		}
		if strings.Contains(qe.Msg, "\n") || qe.Msg == "" {
			t.Errorf("%s: message should be one line: %q", sql, qe.Msg)
		}
	}
	// The pool stays usable after errors.
	if _, err := db.Query(context.Background(), "SELECT 1", nil); err != nil {
		t.Fatal(err)
	}
}

func TestDataSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, dir)
	if err := db.Exec(ctx, `CREATE TABLE keep (v UInt64) ENGINE = MergeTree ORDER BY v`, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(ctx, `INSERT INTO keep SELECT number FROM numbers(1000)`, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir)
	defer db.Close()
	res, err := db.Query(ctx, `SELECT count(), sum(v) FROM keep`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0].(uint64) != 1000 || res.Rows[0][1].(uint64) != 499500 {
		t.Fatalf("after restart: %v", res.Rows[0])
	}
}

func TestSecondDirectoryInProcessRefused(t *testing.T) {
	db := openDB(t, t.TempDir())
	defer db.Close()
	_, err := chdb.Open(context.Background(), t.TempDir(), chdb.Options{})
	if err == nil || !strings.Contains(err.Error(), "one data directory per process") {
		t.Fatalf("err = %v", err)
	}
}

func child(t *testing.T, mode, dir, lib string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DASCH_CHDB_CHILD="+mode, "DASCH_CHDB_DIR_ARG="+dir, "DASCH_CHDB_LIB_ARG="+lib)
	return cmd
}

// hold starts a child process that opens dir (mode hold or hold-ro) and
// keeps it open until the returned stop is called (again: no effect).
func hold(t *testing.T, mode, dir string) (stop func(), pid int) {
	t.Helper()
	holder := child(t, mode, dir, "")
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			stdin.Close()
			_ = holder.Wait()
		}
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		stop()
		t.Fatalf("%s holder: %q", mode, line)
	}
	return stop, holder.Process.Pid
}

func TestLockedDirectory(t *testing.T) {
	dir := t.TempDir()
	stop, pid := hold(t, "hold", dir)
	defer stop()
	_, err := chdb.Open(context.Background(), dir, chdb.Options{PoolSize: 1})
	if !errors.Is(err, chdb.ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, dir) || !strings.Contains(msg, fmt.Sprint(pid)) || strings.Contains(msg, "\n") {
		t.Errorf("message should name the directory and holder pid on one line: %q", msg)
	}
	// The failed attempt must not leave the process unable to open elsewhere.
	db := openDB(t, t.TempDir())
	db.Close()
}

func TestLibraryErrors(t *testing.T) {
	tmp := t.TempDir()
	corrupt := filepath.Join(tmp, "libchdb.so")
	junk := make([]byte, 2<<20)
	if err := os.WriteFile(corrupt, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, lib, want string
	}{
		{"missing", filepath.Join(tmp, "nope", "libchdb.so"), "not found: run `make libchdb`"},
		{"truncated", writeFile(t, tmp, "small.so", 10), "is not a valid libchdb.so"},
		{"corrupt", corrupt, "cannot load"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := child(t, "open", t.TempDir(), tc.lib).Output()
			if err != nil {
				t.Fatalf("child: %v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, tc.want) || !strings.Contains(last, tc.lib) {
				t.Errorf("got %q, want it to contain %q and the path", last, tc.want)
			}
		})
	}
}

func writeFile(t *testing.T, dir, name string, size int) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestContextCancelWhileWaitingForConnection(t *testing.T) {
	db, err := chdb.Open(context.Background(), t.TempDir(), chdb.Options{PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	slow := make(chan error, 1)
	go func() { slow <- db.Exec(context.Background(), "SELECT sleep(1)", nil) }()
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := db.Query(ctx, "SELECT 1", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
}

func TestClosedStore(t *testing.T) {
	db := openDB(t, t.TempDir())
	db.Close()
	if _, err := db.Query(context.Background(), "SELECT 1", nil); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("err = %v", err)
	}
}

// TestDefaultSettings checks that store.DefaultSettings are in effect on
// every connection of the embedded engine.
func TestDefaultSettings(t *testing.T) {
	db := openDB(t, t.TempDir())
	defer db.Close()
	// Booleans read back as true/false.
	norm := map[string]string{"0": "false", "1": "true"}
	for k, v := range store.DefaultSettings() {
		want := v
		if n, ok := norm[v]; ok {
			want = n
		}
		for range 3 {
			res, err := db.Query(context.Background(), `SELECT toString(getSetting({k:String}))`, store.Params{"k": k})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Rows[0][0]; got != want && got != v {
				t.Fatalf("%s = %v on a connection, want %s", k, got, v)
			}
		}
	}
}

// allocatorOptions opens dir with the allocator options given and returns
// the options the engine's allocator runs with, as its statistics list
// them ("opt.thp: \"always\"", ...), one line, or the error.
func allocatorOptions(dir, allocator string) string {
	db, err := chdb.Open(context.Background(), dir, chdb.Options{PoolSize: 1, Allocator: allocator})
	if err != nil {
		return "error: " + err.Error()
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "SELECT * FROM system.jemalloc_stats", nil)
	if err != nil {
		return "error: " + err.Error()
	}
	stats, _ := res.Rows[0][0].(string)
	var opts []string
	for _, line := range strings.Split(stats, "\n") {
		line = strings.TrimSpace(line)
		for _, name := range []string{"opt.thp:", "opt.oversize_threshold:", "opt.dirty_decay_ms:"} {
			if strings.HasPrefix(line, name) {
				opts = append(opts, line)
			}
		}
	}
	return strings.Join(opts, "; ")
}

// TestAllocatorOptions: the allocator's options are set before the library
// loads (each case is a new process), the environment's win, and "-" keeps
// the library's own.
func TestAllocatorOptions(t *testing.T) {
	const own = `opt.oversize_threshold: 67108864; opt.dirty_decay_ms: 5000 (arenas.dirty_decay_ms: 5000); opt.thp: "default"`
	for _, tc := range []struct {
		name, allocator, env, want string
	}{
		{"default", "", "", `opt.oversize_threshold: 67108864; opt.dirty_decay_ms: 5000 (arenas.dirty_decay_ms: 5000); opt.thp: "always"`},
		{"library's own", "-", "", own},
		{"given", "dirty_decay_ms:7000", "", `opt.oversize_threshold: 67108864; opt.dirty_decay_ms: 7000 (arenas.dirty_decay_ms: 7000); opt.thp: "default"`},
		{"environment wins", "", "thp:never", `opt.oversize_threshold: 67108864; opt.dirty_decay_ms: 5000 (arenas.dirty_decay_ms: 5000); opt.thp: "never"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := child(t, "allocator", t.TempDir(), "")
			env := []string{"DASCH_CHDB_ALLOC_ARG=" + tc.allocator}
			for _, kv := range cmd.Env {
				if !strings.HasPrefix(kv, "JE_MALLOC_CONF=") {
					env = append(env, kv)
				}
			}
			if tc.env != "" {
				env = append(env, "JE_MALLOC_CONF="+tc.env)
			}
			cmd.Env = env
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("child: %v", err)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("allocator options:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestFailedStatementLeavesNoOutput: a statement that fails after its
// output began (the header is written before the first block) must not
// leave that output for the next statement on the same connection.
func TestFailedStatementLeavesNoOutput(t *testing.T) {
	ctx := context.Background()
	db, err := chdb.Open(ctx, t.TempDir(), chdb.Options{PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct{ name, sql string }{
		{"substring at 0", `SELECT substring(toString(number), {o:UInt64} + 1, 2) AS s FROM numbers(3)`},
		{"throwIf", `SELECT throwIf(number = 5, 'boom') AS x FROM numbers(10)`},
		{"bad SQL", `SELEC 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := db.Query(ctx, tc.sql, store.Params{"o": "18446744073709551615"}); err == nil {
				t.Fatal("statement did not fail")
			}
			for i := 0; i < 3; i++ {
				res, err := db.Query(ctx, `SELECT 42 AS v, 'x' AS s`, nil)
				if err != nil {
					t.Fatalf("after the failure: %v", err)
				}
				if len(res.Rows) != 1 || res.Rows[0][0] != uint8(42) || res.Rows[0][1] != "x" {
					t.Fatalf("after the failure: %v %v", res.Columns, res.Rows)
				}
			}
		})
	}
}
