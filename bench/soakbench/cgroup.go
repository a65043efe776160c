package soakbench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cgroup is a cgroup v1 memory group holding the server.
type cgroup struct{ dir string }

// newCgroup makes a memory cgroup limited to bytes. It fails where the
// machine has no writable cgroup v1 memory hierarchy.
func newCgroup(bytes int64) (*cgroup, error) {
	root := "/sys/fs/cgroup/memory"
	if _, err := os.Stat(filepath.Join(root, "memory.limit_in_bytes")); err != nil {
		return nil, fmt.Errorf("no cgroup v1 memory hierarchy at %s", root)
	}
	dir := filepath.Join(root, "dasch-soak-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create a memory cgroup: %w", err)
	}
	cg := &cgroup{dir: dir}
	if err := os.WriteFile(filepath.Join(dir, "memory.limit_in_bytes"), []byte(strconv.FormatInt(bytes, 10)), 0o644); err != nil {
		cg.remove()
		return nil, fmt.Errorf("set the memory limit: %w", err)
	}
	return cg, nil
}

// command runs bin with args inside the group from its first
// instruction, as a container would: the process sees the limit, and
// its every page is counted.
func (c *cgroup) command(bin string, args ...string) *exec.Cmd {
	return exec.Command("sh", append([]string{"-c", `echo $$ > "$0" && exec "$@"`, filepath.Join(c.dir, "cgroup.procs"), bin}, args...)...)
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
