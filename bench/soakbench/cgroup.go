package soakbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cgroup is a cgroup v1 memory group holding the server.
type cgroup struct{ dir string }

// limitMemory moves pid into a new memory cgroup limited to bytes. It
// fails where the machine has no writable cgroup v1 memory hierarchy.
func limitMemory(pid int, bytes int64) (*cgroup, error) {
	root := "/sys/fs/cgroup/memory"
	if _, err := os.Stat(filepath.Join(root, "memory.limit_in_bytes")); err != nil {
		return nil, fmt.Errorf("no cgroup v1 memory hierarchy at %s", root)
	}
	dir := filepath.Join(root, "dasch-soak-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create a memory cgroup: %w", err)
	}
	cg := &cgroup{dir: dir}
	for _, w := range []struct{ file, v string }{
		{"memory.limit_in_bytes", strconv.FormatInt(bytes, 10)},
		{"cgroup.procs", strconv.Itoa(pid)},
	} {
		if err := os.WriteFile(filepath.Join(dir, w.file), []byte(w.v), 0o644); err != nil {
			cg.remove()
			return nil, fmt.Errorf("set %s: %w", w.file, err)
		}
	}
	return cg, nil
}

// peak is the group's peak usage and how often it hit the limit.
func (c *cgroup) peak() (bytes, hits int64) {
	read := func(f string) int64 {
		b, err := os.ReadFile(filepath.Join(c.dir, f))
		if err != nil {
			return 0
		}
		n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		return n
	}
	return read("memory.max_usage_in_bytes"), read("memory.failcnt")
}

// remove deletes the group once its processes are gone (it is tried for
// a while: the server may still be exiting).
func (c *cgroup) remove() {
	for range 50 {
		if err := os.Remove(c.dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
