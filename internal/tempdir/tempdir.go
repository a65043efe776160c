// Package tempdir makes the temporary directories of benchmark, test and
// conformance runs, and removes the ones left by runs that died before
// removing their own (SIGKILL, a machine restart): a large bench leaves
// tens of gigabytes of them (docs/performance.md).
//
// A directory made here holds an owner file, locked (flock) by the
// process that made it for as long as it holds the directory. The kernel
// drops the lock when that process ends, however it ends, so a directory
// whose owner file can be locked by someone else is an orphan. Unlike a
// pid, the lock cannot be mistaken after pid reuse or across PID
// namespaces sharing one /tmp. A directory without an owner file
// (another tool's, an older dasch's) is left alone.
package tempdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// OwnerFile is the name of the owner file in a directory made here.
const OwnerFile = ".dasch-owner"

// Dir is a temporary directory this process holds.
type Dir struct {
	// Path is the directory.
	Path  string
	owner *os.File // locked while held; nil when the lock could not be taken
}

// Make removes the directories matching pattern in the system's temporary
// directory that no process holds, then creates and holds a new one, as
// os.MkdirTemp("", pattern) names it. It returns the new directory and
// the ones it removed; an orphan it could not remove is not an error (the
// next run tries again).
func Make(pattern string) (*Dir, []string, error) {
	return makeIn(os.TempDir(), pattern)
}

func makeIn(root, pattern string) (*Dir, []string, error) {
	removed, _ := sweep(root, pattern)
	path, err := os.MkdirTemp(root, pattern)
	if err != nil {
		return nil, removed, fmt.Errorf("temporary directory: %w", err)
	}
	d := &Dir{Path: path}
	// The file is locked before it gets its name, so a sweep never finds
	// it unlocked.
	pending := filepath.Join(path, OwnerFile+".new")
	f, err := os.OpenFile(pending, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		os.RemoveAll(path)
		return nil, removed, fmt.Errorf("temporary directory %s: owner file: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		// No locks on this file system: the directory works, but a crash
		// leaves it (without an owner file it is never swept).
		f.Close()
		os.Remove(pending)
		return d, removed, nil
	}
	fmt.Fprintf(f, "pid %d\n", os.Getpid())
	if err := os.Rename(pending, filepath.Join(path, OwnerFile)); err != nil {
		f.Close()
		os.RemoveAll(path)
		return nil, removed, fmt.Errorf("temporary directory %s: owner file: %w", path, err)
	}
	d.owner = f
	return d, removed, nil
}

// Remove removes the directory and lets go of it. It may be called again.
func (d *Dir) Remove() error {
	if d == nil || d.Path == "" {
		return nil
	}
	err := os.RemoveAll(d.Path)
	if d.owner != nil {
		d.owner.Close()
		d.owner = nil
	}
	d.Path = ""
	return err
}

// sweep removes the directories matching pattern in root whose owner file
// no process holds.
func sweep(root, pattern string) ([]string, error) {
	if strings.ContainsRune(pattern, filepath.Separator) {
		return nil, fmt.Errorf("temporary directory pattern %q: contains a path separator", pattern)
	}
	matches, err := filepath.Glob(filepath.Join(root, pattern))
	if err != nil {
		return nil, fmt.Errorf("temporary directory pattern %q: %w", pattern, err)
	}
	var removed []string
	var errs []error
	for _, m := range matches {
		ok, err := removeOrphan(m)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			removed = append(removed, m)
		}
	}
	return removed, errors.Join(errs...)
}

// removeOrphan removes dir if it has an owner file that nobody holds,
// holding the lock while it does so that two sweeps do not race.
func removeOrphan(dir string) (bool, error) {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return false, nil
	}
	f, err := os.Open(filepath.Join(dir, OwnerFile))
	if err != nil {
		return false, nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false, nil // held (EWOULDBLOCK), or no locks here: leave it
	}
	if err := os.RemoveAll(dir); err != nil {
		return false, fmt.Errorf("remove orphan %s: %w", dir, err)
	}
	return true, nil
}
