package compressedbench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// flushDirty writes the page cache's dirty pages to disk (sync(2)) before
// the timed phase next, and says how much was pending and how long it
// took. With fsync off, PostgreSQL's load leaves gigabytes of its files
// dirty, and each phase of dasch leaves its own parts: the kernel's
// flusher threads write them back during whatever runs next, on the same
// two cores, and that phase's clock pays for them.
func (r *runner) flushDirty(next string) {
	pending := "?"
	if b, err := dirtyBytes(); err == nil {
		pending = fmt.Sprintf("%.2f GB", float64(b)/1e9)
	}
	start := time.Now()
	syscall.Sync()
	r.say("flushed %s of dirty pages before %s in %.1fs", pending, next, time.Since(start).Seconds())
}

// dirtyBytes is the page cache's Dirty plus Writeback (/proc/meminfo).
func dirtyBytes() (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseDirty(f)
}

// parseDirty sums the Dirty and Writeback lines ("Dirty:  1234 kB") of a
// meminfo file.
func parseDirty(f io.Reader) (int64, error) {
	var total int64
	seen := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "Dirty" && name != "Writeback") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("meminfo: unexpected %s line %q", name, sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("meminfo: %s: %w", name, err)
		}
		total += kb << 10
		seen++
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("meminfo: %w", err)
	}
	if seen != 2 {
		return 0, fmt.Errorf("meminfo: Dirty or Writeback missing")
	}
	return total, nil
}
