package light

import (
	"strings"
	"testing"
)

func TestLoadTreesCorpus(t *testing.T) {
	trees := testTrees(t)
	tests := []struct {
		key      string
		tree     string
		queue    string
		typ      TreeType
		height   uint32
		capacity uint64
	}{
		{"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", TreeStateV1, 26, 2400},
		{"nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", TreeStateV1, 26, 2400},
		{"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2", "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2", "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F", TreeAddressV1, 26, 2400},
		{"oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg", "bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi", "oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg", TreeStateV2, 32, 2400},
		{"EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK", "EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK", "EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK", TreeAddressV2, 40, 2400},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			info, ok := trees.Tree(mustPubkey(t, tc.key))
			if !ok {
				t.Fatal("not found")
			}
			if info.Tree.String() != tc.tree || info.Queue.String() != tc.queue || info.Type != tc.typ ||
				info.Height != tc.height || info.RootHistoryCapacity != tc.capacity {
				t.Errorf("got %+v", info)
			}
		})
	}
	// Old trees are listed apart and not seeded.
	if _, ok := trees.Tree(mustPubkey(t, "smt9ReAYRF5eFjTd5gBJMn5aKwNRcmp3ub2CQr2vW7j")); ok {
		t.Error("unseeded tree smt9 found")
	}
}

func TestLoadTrees(t *testing.T) {
	const a, b = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148"
	entry := func(tree string, code, height, capacity string) string {
		return `{"tree":"` + tree + `","queue":"` + b + `","tree_type_code":` + code + `,"height":` + height + `,"root_history_capacity":` + capacity + `}`
	}
	tests := []struct {
		name     string
		in       string
		wantErr  string
		trees    int
		capacity uint64
	}{
		{name: "one tree", in: `{"trees":[` + entry(a, "1", "26", "2400") + `]}`, trees: 1, capacity: 2400},
		{name: "duplicate keeps the first", in: `{"trees":[` + entry(a, "1", "26", "2400") + `,` + entry(a, "1", "26", "5000") + `]}`, trees: 1, capacity: 2400},
		{name: "unknown type", in: `{"trees":[` + entry(a, "5", "26", "2400") + `]}`, wantErr: "tree_type_code"},
		{name: "missing height", in: `{"trees":[` + entry(a, "1", "null", "2400") + `]}`, wantErr: "height"},
		{name: "bad pubkey", in: `{"trees":[` + entry("0OIl", "1", "26", "2400") + `]}`, wantErr: "tree"},
		{name: "not JSON", in: `{"trees":`, wantErr: "trees file"},
		{name: "empty", in: `{}`, trees: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadTrees(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(m) != tc.trees {
				t.Fatalf("%d trees, want %d", len(m), tc.trees)
			}
			for _, info := range m {
				if info.RootHistoryCapacity != tc.capacity {
					t.Errorf("capacity %d, want %d", info.RootHistoryCapacity, tc.capacity)
				}
			}
		})
	}
}
