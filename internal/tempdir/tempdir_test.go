package tempdir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// fakeProc builds a /proc with a boot id and the given pid → start times.
func fakeProc(t *testing.T, boot string, procs map[int]uint64) proc {
	t.Helper()
	root := t.TempDir()
	if boot != "" {
		mustWrite(t, filepath.Join(root, "sys/kernel/random/boot_id"), boot+"\n")
	}
	for pid, start := range procs {
		// A command name with spaces and a parenthesis, as comm may have.
		stat := fmt.Sprintf("%d (a b) c) S 1 1 1 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 1 0 %d 1000 10\n", pid, start)
		mustWrite(t, filepath.Join(root, strconv.Itoa(pid), "stat"), stat)
	}
	return proc{procRoot: root, pid: 100}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSweep(t *testing.T) {
	const boot = "7c1f3a52-0d5e-4b7e-9a55-1f2e3d4c5b6a"
	p := fakeProc(t, boot, map[int]uint64{100: 5000, 200: 6000})
	cases := []struct {
		name    string
		owner   string // "" writes no owner file; "-" makes a file, not a directory
		removed bool
	}{
		{"dasch-bench-alive", boot + " 200 6000", false},
		{"dasch-bench-self", boot + " 100 5000", false},
		{"dasch-bench-pid-reused", boot + " 200 6001", true},
		{"dasch-bench-no-process", boot + " 300 6000", true},
		{"dasch-bench-earlier-boot", "0a1b2c3d-other-boot 200 6000", true},
		{"dasch-bench-no-owner", "", false},
		{"dasch-bench-garbage", "not an owner line", false},
		{"dasch-bench-bad-pid", boot + " -4 6000", false},
		{"dasch-bench-file", "-", false},
		{"other-dir", boot + " 300 6000", false},
	}
	root := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(root, c.name)
		switch c.owner {
		case "-":
			mustWrite(t, path, "x")
		case "":
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(path, "data"), "x")
		default:
			mustWrite(t, filepath.Join(path, OwnerFile), c.owner+"\n")
			mustWrite(t, filepath.Join(path, "data", "part"), "x")
		}
	}
	removed, err := sweep(root, "dasch-bench-*", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		path := filepath.Join(root, c.name)
		_, statErr := os.Lstat(path)
		if gone := os.IsNotExist(statErr); gone != c.removed {
			t.Errorf("%s: removed %v, want %v", c.name, gone, c.removed)
		}
		if slices.Contains(removed, path) != c.removed {
			t.Errorf("%s: in the removed list %v, want %v", c.name, slices.Contains(removed, path), c.removed)
		}
	}
}

// Without a boot id the system cannot tell who is gone: nothing is
// removed, and new directories get no owner file.
func TestSweepWithoutProc(t *testing.T) {
	p := fakeProc(t, "", nil)
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "dasch-bench-1", OwnerFile), "boot 300 1\n")
	dir, removed, err := makeIn(root, "dasch-bench-*", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 0 {
		t.Fatalf("removed %v without a /proc", removed)
	}
	if _, err := os.Stat(filepath.Join(root, "dasch-bench-1")); err != nil {
		t.Fatalf("stale-looking directory removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, OwnerFile)); !os.IsNotExist(err) {
		t.Fatalf("owner file written without a boot id: %v", err)
	}
}

func TestSweepRejectsPathPattern(t *testing.T) {
	if _, err := sweep(t.TempDir(), "../dasch-*", current()); err == nil {
		t.Fatal("a pattern with a path separator was accepted")
	}
}

// On the real /proc: a directory made by this process survives a sweep,
// one owned by a child that has exited is removed.
func TestMakeRealProc(t *testing.T) {
	if _, err := current().bootID(); err != nil {
		t.Skipf("no /proc boot id here: %v", err)
	}
	root := t.TempDir()
	mine, _, err := makeIn(root, "dasch-test-*", current())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(mine, OwnerFile))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := parseOwner(b)
	if !ok || o.pid != os.Getpid() {
		t.Fatalf("owner file %q does not name this process", b)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child: %v", err)
	}
	dead := o
	dead.pid = cmd.Process.Pid
	stale := filepath.Join(root, "dasch-test-stale")
	mustWrite(t, filepath.Join(stale, OwnerFile), dead.String())
	next, removed, err := makeIn(root, "dasch-test-*", current())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{stale}) {
		t.Fatalf("removed %v, want only %s", removed, stale)
	}
	for _, d := range []string{mine, next} {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("live directory %s: %v", d, err)
		}
	}
}
