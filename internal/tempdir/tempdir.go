// Package tempdir makes the temporary directories of benchmark and
// conformance runs, and removes the ones left by runs that died before
// removing their own (SIGKILL, a machine restart): a 20M-account bench
// with PostgreSQL peaks at about 73 GB of them.
//
// Each directory holds an owner file naming the process that made it by
// boot, pid and start time. A directory is removed only when that file
// says its process is gone: same boot, and no process with that pid and
// start time. A directory without a readable owner file (another tool's,
// an older dasch's, one being made right now) is left alone.
package tempdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OwnerFile is the name of the owner file in a temporary directory.
const OwnerFile = ".dasch-owner"

// Make removes the temporary directories matching pattern in the system's
// temporary directory whose process is gone, then creates a new one as
// os.MkdirTemp("", pattern) does, with its owner file. It returns the new
// directory and the ones it removed; a stale directory it could not
// remove is not an error (it is left for the next run).
func Make(pattern string) (dir string, removed []string, err error) {
	return makeIn(os.TempDir(), pattern, current())
}

func makeIn(root, pattern string, p proc) (string, []string, error) {
	removed, _ := sweep(root, pattern, p)
	dir, err := os.MkdirTemp(root, pattern)
	if err != nil {
		return "", removed, fmt.Errorf("temporary directory: %w", err)
	}
	owner, err := p.owner()
	if err != nil {
		// Without an owner file the directory is never swept: still
		// usable, only not cleaned up after a crash.
		return dir, removed, nil
	}
	if err := os.WriteFile(filepath.Join(dir, OwnerFile), []byte(owner), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", removed, fmt.Errorf("temporary directory %s: owner file: %w", dir, err)
	}
	return dir, removed, nil
}

// sweep removes the directories matching pattern in root whose owner
// file names a process that is gone.
func sweep(root, pattern string, p proc) ([]string, error) {
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
		st, err := os.Lstat(m)
		if err != nil || !st.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(m, OwnerFile))
		if err != nil {
			continue
		}
		o, ok := parseOwner(b)
		if !ok || !p.gone(o) {
			continue
		}
		if err := os.RemoveAll(m); err != nil {
			errs = append(errs, fmt.Errorf("remove stale %s: %w", m, err))
			continue
		}
		removed = append(removed, m)
	}
	return removed, errors.Join(errs...)
}

// owner names a process across pid reuse and restarts.
type owner struct {
	boot  string
	pid   int
	start uint64
}

func (o owner) String() string { return fmt.Sprintf("%s %d %d\n", o.boot, o.pid, o.start) }

func parseOwner(b []byte) (owner, bool) {
	f := strings.Fields(string(b))
	if len(f) != 3 || f[0] == "" {
		return owner{}, false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return owner{}, false
	}
	start, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return owner{}, false
	}
	return owner{f[0], pid, start}, true
}

// proc reads what the owner check needs from the system; tests give
// their own.
type proc struct {
	procRoot string
	pid      int
}

// current is this process, on the system's /proc.
func current() proc { return proc{procRoot: "/proc", pid: os.Getpid()} }

// owner is this process's owner line.
func (p proc) owner() (string, error) {
	boot, err := p.bootID()
	if err != nil {
		return "", err
	}
	start, err := p.startTime(p.pid)
	if err != nil {
		return "", err
	}
	return owner{boot, p.pid, start}.String(), nil
}

// gone tells whether o's process has ended: in this boot, no process
// with its pid and start time. When the system cannot tell (no /proc),
// the process is taken as alive.
func (p proc) gone(o owner) bool {
	boot, err := p.bootID()
	if err != nil {
		return false
	}
	if boot != o.boot {
		return true
	}
	start, err := p.startTime(o.pid)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && start != o.start
}

func (p proc) bootID() (string, error) {
	b, err := os.ReadFile(filepath.Join(p.procRoot, "sys/kernel/random/boot_id"))
	if err != nil {
		return "", fmt.Errorf("boot id: %w", err)
	}
	id := string(bytes.TrimSpace(b))
	if id == "" || strings.ContainsAny(id, " \t\n") {
		return "", fmt.Errorf("boot id: malformed %q", id)
	}
	return id, nil
}

// startTime is field 22 of /proc/PID/stat: the process's start, in clock
// ticks after boot. The command name (field 2) may hold spaces and
// parentheses, so fields are counted after its last ')'.
func (p proc) startTime(pid int) (uint64, error) {
	b, err := os.ReadFile(filepath.Join(p.procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("process %d: malformed stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return 0, fmt.Errorf("process %d: short stat", pid)
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("process %d: start time: %w", pid, err)
	}
	return start, nil
}
