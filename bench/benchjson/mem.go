package benchjson

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SelfMemory reads this process's VmRSS and VmHWM.
func SelfMemory() (Memory, error) { return procMemory("self") }

// TreeMemory sums VmRSS and VmHWM over pid and its descendants: a
// PostgreSQL server is its postmaster and a process per backend and
// worker. The sum of peaks is an upper bound of the tree's peak.
func TreeMemory(pid int) (Memory, error) {
	kids, err := children()
	if err != nil {
		return Memory{}, err
	}
	var total Memory
	for todo := []int{pid}; len(todo) > 0; {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		m, err := procMemory(strconv.Itoa(p))
		if err != nil {
			if p == pid {
				return Memory{}, err
			}
			continue // a backend that exited meanwhile
		}
		total.RSSBytes += m.RSSBytes
		total.HWMBytes += m.HWMBytes
		todo = append(todo, kids[p]...)
	}
	return total, nil
}

// children maps each process to its children, from /proc/*/stat.
func children() (map[int][]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	out := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name is in parentheses and may hold spaces.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			out[ppid] = append(out[ppid], pid)
		}
	}
	return out, nil
}

func procMemory(pid string) (Memory, error) {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return Memory{}, fmt.Errorf("memory: %w", err)
	}
	defer f.Close()
	var m Memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v) // "123456 kB"
		if len(f) != 2 || f[1] != "kB" {
			return Memory{}, fmt.Errorf("memory: /proc/%s/status: %s%q", pid, k, v)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return Memory{}, fmt.Errorf("memory: /proc/%s/status: %w", pid, err)
		}
		if k == "VmRSS" {
			m.RSSBytes = n << 10
		} else {
			m.HWMBytes = n << 10
		}
	}
	if err := sc.Err(); err != nil {
		return Memory{}, fmt.Errorf("memory: /proc/%s/status: %w", pid, err)
	}
	return m, nil
}

// Sample records the memory read under name in the run.
func (r *Run) Sample(name string, read func() (Memory, error)) { Sample(r.Memory, name, read) }

// Sample records the memory read under name in into, when it can be read:
// memory is a figure beside a run, not a reason to fail it.
func Sample(into map[string]Memory, name string, read func() (Memory, error)) {
	if m, err := read(); err == nil && m.RSSBytes > 0 {
		into[name] = m
	}
}

// LoadAvg is the machine's 1-minute load average, "?" where /proc does
// not say.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
