package tempdir

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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
	root := t.TempDir()
	held, _, err := makeIn(root, "dasch-bench-*")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Remove()
	if held.owner == nil {
		t.Skip("no file locks in the temporary directory's file system")
	}
	cases := []struct {
		name    string
		make    func(path string)
		removed bool
	}{
		{"dasch-bench-orphan", func(p string) { mustWrite(t, filepath.Join(p, OwnerFile), "pid 1\n") }, true},
		{"dasch-bench-orphan-with-data", func(p string) {
			mustWrite(t, filepath.Join(p, OwnerFile), "pid 1\n")
			mustWrite(t, filepath.Join(p, "store", "part"), "x")
		}, true},
		{"dasch-bench-no-owner", func(p string) { mustWrite(t, filepath.Join(p, "store"), "x") }, false},
		{"dasch-bench-being-made", func(p string) { mustWrite(t, filepath.Join(p, OwnerFile+".new"), "") }, false},
		{"dasch-bench-file", func(p string) { mustWrite(t, p, "x") }, false},
		{"other-orphan", func(p string) { mustWrite(t, filepath.Join(p, OwnerFile), "pid 1\n") }, false},
	}
	for _, c := range cases {
		c.make(filepath.Join(root, c.name))
	}
	removed, err := sweep(root, "dasch-bench-*")
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
			t.Errorf("%s: listed as removed %v, want %v", c.name, slices.Contains(removed, path), c.removed)
		}
	}
	if _, err := os.Stat(filepath.Join(held.Path, OwnerFile)); err != nil {
		t.Fatalf("the held directory was swept: %v", err)
	}
	path := held.Path
	if err := held.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Remove left %s: %v", path, err)
	}
	if err := held.Remove(); err != nil {
		t.Fatalf("second Remove: %v", err)
	}
}

func TestSweepRejectsPathPattern(t *testing.T) {
	if _, err := sweep(t.TempDir(), "../dasch-*"); err == nil {
		t.Fatal("a pattern with a path separator was accepted")
	}
}

// TestHolder is run by TestOrphanOfEndedProcess as a child process: it
// makes a directory in $TEMPDIR_HOLD_ROOT, prints its path and waits for
// its input to close, then exits without removing it.
func TestHolder(t *testing.T) {
	root := os.Getenv("TEMPDIR_HOLD_ROOT")
	if root == "" {
		t.Skip("run by TestOrphanOfEndedProcess")
	}
	d, _, err := makeIn(root, "dasch-bench-*")
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("DIR " + d.Path + "\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}

// A directory is kept while the process that made it runs, and removed
// by the next sweep once that process has ended without removing it.
func TestOrphanOfEndedProcess(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHolder$")
	cmd.Env = append(os.Environ(), "TEMPDIR_HOLD_ROOT="+root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var dir string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "DIR "); ok {
			dir = p
			break
		}
	}
	if dir == "" {
		in.Close()
		cmd.Wait()
		t.Fatal("the child printed no directory")
	}
	if _, err := os.Stat(filepath.Join(dir, OwnerFile)); os.IsNotExist(err) {
		in.Close()
		cmd.Wait()
		t.Skip("no file locks in the temporary directory's file system")
	}
	if removed, _ := sweep(root, "dasch-bench-*"); len(removed) != 0 {
		t.Fatalf("swept %v while its process runs", removed)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the child removed its directory itself: %v", err)
	}
	d, removed, err := makeIn(root, "dasch-bench-*")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Remove()
	if !slices.Equal(removed, []string{dir}) {
		t.Fatalf("removed %v, want only %s", removed, dir)
	}
}
