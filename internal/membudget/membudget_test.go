package membudget

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDetect(t *testing.T) {
	const meminfo = "MemTotal:       24576000 kB\nMemFree: 1 kB\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  Budget
		err   bool
	}{
		{"v2 limit", map[string]string{"proc/self/cgroup": "0::/svc\n", "sys/fs/cgroup/svc/memory.max": "536870912\n", "proc/meminfo": meminfo},
			Budget{536870912, "cgroup v2"}, false},
		{"v2 namespace root", map[string]string{"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "1073741824", "proc/meminfo": meminfo},
			Budget{1073741824, "cgroup v2"}, false},
		{"v2 no limit", map[string]string{"proc/self/cgroup": "0::/svc\n", "sys/fs/cgroup/svc/memory.max": "max\n", "proc/meminfo": meminfo},
			Budget{24576000 << 10, "machine"}, false},
		{"v1 limit", map[string]string{"proc/self/cgroup": "12:pids:/x\n9:cpu,memory:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "2147483648\n", "proc/meminfo": meminfo},
			Budget{2147483648, "cgroup v1"}, false},
		{"v1 none", map[string]string{"proc/self/cgroup": "9:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n", "proc/meminfo": meminfo},
			Budget{24576000 << 10, "machine"}, false},
		{"no cgroup file", map[string]string{"proc/meminfo": meminfo}, Budget{24576000 << 10, "machine"}, false},
		{"garbage limit", map[string]string{"proc/self/cgroup": "0::/svc\n", "sys/fs/cgroup/svc/memory.max": "lots\n", "proc/meminfo": meminfo},
			Budget{24576000 << 10, "machine"}, false},
		{"no meminfo", map[string]string{}, Budget{}, true},
		{"bad meminfo", map[string]string{"proc/meminfo": "MemFree: 1 kB\n"}, Budget{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for p, v := range tc.files {
				full := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(v), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := detect(root)
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("detect = %+v, %v; want %+v (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	b := Budget{Bytes: 1200 << 20, From: "flag"}
	if b.Engine() != 600<<20 || b.Go() != 400<<20 {
		t.Errorf("engine %d, Go %d", b.Engine()>>20, b.Go()>>20)
	}
	if b.Engine()+b.Go() >= b.Bytes {
		t.Error("no room left beside the engine and the heap")
	}
	if s := b.String(); s != "1200 MiB (flag): engine 600 MiB, Go heap 400 MiB" {
		t.Errorf("String() = %q", s)
	}
}
