package compressedbench

import (
	"strings"
	"testing"
)

func TestParseDirty(t *testing.T) {
	cases := []struct {
		name, meminfo string
		want          int64
		err           bool
	}{
		{name: "both", meminfo: "MemTotal:       24000000 kB\nDirty:              1500 kB\nWriteback:           12 kB\nAnonPages: 5 kB\n", want: 1512 << 10},
		{name: "zero", meminfo: "Dirty: 0 kB\nWriteback: 0 kB\n", want: 0},
		{name: "no writeback", meminfo: "Dirty: 10 kB\n", err: true},
		{name: "other unit", meminfo: "Dirty: 10 MB\nWriteback: 0 kB\n", err: true},
		{name: "not a number", meminfo: "Dirty: x kB\nWriteback: 0 kB\n", err: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseDirty(strings.NewReader(c.meminfo))
			if (err != nil) != c.err {
				t.Fatalf("err = %v, want error %v", err, c.err)
			}
			if got != c.want {
				t.Errorf("got %d bytes, want %d", got, c.want)
			}
		})
	}
}
