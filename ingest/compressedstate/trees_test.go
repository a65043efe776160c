package compressedstate

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/light"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/config"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
)

const smt2Only = `{"trees": [{"tree": "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho",
	"queue": "nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X", "tree_type_code": 1, "height": 26, "root_history_capacity": 2400}]}`

func TestSeedAndLoadTrees(t *testing.T) {
	s := storetest.Open(t)
	ctx := context.Background()
	// Seeding twice is the same as seeding once.
	for range 2 {
		if err := SeedTrees(ctx, s, bytes.NewReader(config.DefaultTrees())); err != nil {
			t.Fatal(err)
		}
	}
	if got := rows(t, s, `SELECT count() FROM state_trees FINAL`); got[0] != "8" {
		t.Fatalf("%v trees, want 8", got)
	}
	trees, err := LoadTrees(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key, tree string
		typ       light.TreeType
		height    uint32
	}{
		{"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", light.TreeStateV1, 26},
		{"nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", light.TreeStateV1, 26},
		{"oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto", "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU", light.TreeStateV2, 32},
		{"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2", "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2", light.TreeAddressV1, 26},
		{"EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK", "EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK", light.TreeAddressV2, 40},
	}
	for _, c := range cases {
		key, _ := solana.ParsePubkey(c.key)
		info, ok := trees.Tree(key)
		if !ok || info.Tree.String() != c.tree || info.Type != c.typ || info.Height != c.height || info.RootHistoryCapacity != 2400 {
			t.Errorf("%s: %+v %v", c.key, info, ok)
		}
	}
	unknown, _ := solana.ParsePubkey("11111111111111111111111111111111")
	if _, ok := trees.Tree(unknown); ok {
		t.Error("unknown key resolved")
	}

	// A tree seeded again with other values takes them.
	if err := SeedTrees(ctx, s, strings.NewReader(strings.Replace(smt2Only, "2400", "500", 1))); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, s, `SELECT count(), sum(root_history_capacity) FROM state_trees FINAL`); got[0] != "8 17300" {
		t.Errorf("after re-seed: %v", got)
	}
}

func TestSeedTreesRejectsBadInput(t *testing.T) {
	s := storetest.Open(t)
	cases := []struct{ name, doc, want string }{
		{"not JSON", `{`, "trees file"},
		{"bad pubkey", `{"trees":[{"tree":"x","queue":"y","tree_type_code":1,"height":1,"root_history_capacity":1}]}`, "tree"},
		{"bad type", `{"trees":[{"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","queue":"nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X","tree_type_code":9,"height":1,"root_history_capacity":1}]}`, "tree_type_code 9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SeedTrees(context.Background(), s, strings.NewReader(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	if got := rows(t, s, `SELECT count() FROM state_trees`); got[0] != "0" {
		t.Errorf("bad input wrote %v trees", got)
	}
}

func TestConfigureSeedsOnlyAnEmptyTable(t *testing.T) {
	cases := []struct {
		name  string
		seed  string // trees seeded before Configure; "" for none
		trees string
	}{
		{"empty: default trees", "", "8"},
		{"seeded: left alone", smt2Only, "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := storetest.Open(t)
			ctx := context.Background()
			if c.seed != "" {
				if err := SeedTrees(ctx, s, strings.NewReader(c.seed)); err != nil {
					t.Fatal(err)
				}
			}
			var cfg ingest.Config
			if err := Configure(ctx, s, &cfg); err != nil {
				t.Fatal(err)
			}
			if len(cfg.Decoders) != 1 || cfg.Decoders[0].Name() != "compressed" || len(cfg.Steps) != 1 || cfg.Steps[0].Name() != "compressed" {
				t.Errorf("config %+v", cfg)
			}
			if got := rows(t, s, `SELECT count() FROM state_trees FINAL`); got[0] != c.trees {
				t.Errorf("%v trees, want %s", got, c.trees)
			}
		})
	}
}
