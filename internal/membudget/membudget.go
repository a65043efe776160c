// Package membudget finds the memory a process may use (its cgroup's
// limit, else the machine's) and splits it between the embedded engine
// and the Go heap, so that a limit ends in a clean "memory limit
// exceeded" error rather than the kernel killing the process.
package membudget

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Budget is the memory a process may use and where the figure came from.
type Budget struct {
	Bytes int64
	// From is "flag", "cgroup v2", "cgroup v1" or "machine".
	From string
}

// Engine is the embedded engine's share (max_server_memory_usage): half.
// The engine keeps its own accounting and refuses a query past it.
func (b Budget) Engine() int64 { return b.Bytes / 2 }

// Go is the Go heap's soft limit (runtime/debug.SetMemoryLimit): the
// rest but a sixth, left for stacks, the library's code and the page
// cache the cgroup also counts.
func (b Budget) Go() int64 { return b.Bytes/2 - b.Bytes/6 }

func (b Budget) String() string {
	return fmt.Sprintf("%d MiB (%s): engine %d MiB, Go heap %d MiB", b.Bytes>>20, b.From, b.Engine()>>20, b.Go()>>20)
}

// Detect returns the process's budget: its cgroup's memory limit when
// it has one, else the machine's memory.
func Detect() (Budget, error) { return detect("/") }

// noLimit is above any real limit: cgroup v1 writes a page-rounded
// 2^63-1 for none.
const noLimit = int64(1) << 60

func detect(root string) (Budget, error) {
	if b, ok := cgroupLimit(root); ok {
		return b, nil
	}
	n, err := memTotal(filepath.Join(root, "proc/meminfo"))
	if err != nil {
		return Budget{}, err
	}
	return Budget{Bytes: n, From: "machine"}, nil
}

// cgroupLimit reads the limit of the process's own memory cgroup, v2
// then v1; ok is false when there is none.
func cgroupLimit(root string) (Budget, bool) {
	lines, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return Budget{}, false
	}
	for _, line := range strings.Split(string(lines), "\n") {
		// hierarchy-id:controllers:path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var candidates []string
		var from string
		switch {
		case parts[0] == "0" && parts[1] == "":
			from = "cgroup v2"
			candidates = []string{filepath.Join(root, "sys/fs/cgroup", parts[2], "memory.max"), filepath.Join(root, "sys/fs/cgroup/memory.max")}
		case hasController(parts[1], "memory"):
			from = "cgroup v1"
			candidates = []string{filepath.Join(root, "sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"),
				filepath.Join(root, "sys/fs/cgroup/memory/memory.limit_in_bytes")}
		default:
			continue
		}
		for _, p := range candidates {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			v := strings.TrimSpace(string(b))
			if v == "max" {
				break
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil && n > 0 && n < noLimit {
				return Budget{Bytes: n, From: from}, true
			}
			break
		}
	}
	return Budget{}, false
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

func memTotal(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("machine memory: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("machine memory: %s: %w", path, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("machine memory: no MemTotal in %s", path)
}
