package compressedstate

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

const (
	smt1 = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
	amt1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
	// The forester set: two transactions create and spend accounts, one
	// nullifies leaves of smt1 and one inserts an address into amt1.
	foresterDir = "../../testdata/photon/transactions/nullfiier_and_address_queue_transactions"
)

var foresterTxs = []string{
	"35zJYUMreV5BRzuzSSfqSVWzLtMqPtWtLBkkH2CP24gFWijju46Vi3ARawzxs22GqZPbXo6uzSosaUXGLgRA9Hth",
	"gXhNzuJHcVz6k625LkeLB9qLU7D56WnHXH6hHBCQfdv7eYPbZPqWpqEjpz86qWa23megQofz8PPBYtPqEHCicbF",
	"3pmqSXTSzdbbgmp63v1Dz1NGM5Z187wisdsonL8gDcPAimfFdnCB3H5agtcHg1fmhkkWk4PgGTjS2GjzQPknuGcg",
	"3qSTxmtPen9HtjEhKGpzYdLvRqEQaxSeLaGeav2GC5c2PU8ZEVq84HSeMCxN3jrt6NWB5ZoWPAGn1dv27y3zyG75",
}

func foresterPaths(sigs ...string) []string {
	out := make([]string, len(sigs))
	for i, s := range sigs {
		out[i] = filepath.Join(foresterDir, s+".json")
	}
	return out
}

// root reads a tree's root and its sequence number as "base58 seq".
func root(t *testing.T, s arrowstore.Writer, tree string) string {
	t.Helper()
	k, err := base58.Decode(tree)
	if err != nil {
		t.Fatal(err)
	}
	r := query(t, s, `SELECT hash, seq FROM state_tree_nodes FINAL WHERE tree = {t:FixedString(32)} AND node_idx = 1`,
		store.Params{"t": string(k)})
	if len(r) != 1 {
		return "none"
	}
	return base58.Encode([]byte(r[0][0].(string))) + " " + strconv.FormatUint(r[0][1].(uint64), 10)
}

// TestTreeRootsMatchPhoton indexes the corpus sets in several orders and
// batchings and compares the derived roots with the roots Photon reports
// for them (the proof cases of the corpus).
func TestTreeRootsMatchPhoton(t *testing.T) {
	zero := uint64(0)
	reversed := func(in []string) []string { out := slices.Clone(in); slices.Reverse(out); return out }
	tests := []struct {
		name  string
		files func(...string) []string
		order []string
		want  map[string]string
	}{
		{"mint and transfers", paths, listed, map[string]string{smt1: "2wBDKLscN4SBNzNdVsHq17PVXycvM8n4LNiKzJrebqZ7 7"}},
		{"forester updates", foresterPaths, foresterTxs, map[string]string{
			smt1: "45u9rUQmAfgk5aTfjetBvqz63cRXmcmm4bupSE7d2zEm 5",
			amt1: "2RHRJrmNU2fLCBTr9gtxaz8F1o8vnVc6wdJEZyDSSQf9 5",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check := func(s arrowstore.Writer, how string) {
				t.Helper()
				for tree, want := range tc.want {
					if got := root(t, s, tree); got != want {
						t.Errorf("%s: root of %s = %s, want %s", how, tree[:4], got, want)
					}
				}
			}
			s := storetest.Open(t)
			index(t, s, tc.files(tc.order...), ingest.Config{ForceSlot: &zero})
			check(s, "one run")
			// Again, and all but the last again: nothing changes.
			index(t, s, tc.files(append(slices.Clone(tc.order), tc.order[:len(tc.order)-1]...)...), ingest.Config{ForceSlot: &zero})
			check(s, "re-indexed")

			// Reverse order, one transaction per run: each run sees only
			// part of the tree, and later leaves arrive first.
			s2 := storetest.Open(t)
			for _, sig := range reversed(tc.order) {
				index(t, s2, tc.files(sig), ingest.Config{ForceSlot: &zero})
			}
			check(s2, "reversed, split")
		})
	}
}

// TestAddressElements checks the stored elements of amt1 after the
// forester's insert: the two initial elements and the inserted address,
// linked in value order.
func TestAddressElements(t *testing.T) {
	zero := uint64(0)
	s := storetest.Open(t)
	index(t, s, foresterPaths(foresterTxs...), ingest.Config{ForceSlot: &zero})
	got := rows(t, s, `SELECT leaf_idx, next_index, seq FROM address_tree_elements FINAL ORDER BY leaf_idx`)
	want := []string{"0 2 4", "1 0 0", "2 1 5"}
	if !slices.Equal(got, want) {
		t.Errorf("elements %v, want %v", got, want)
	}
}
