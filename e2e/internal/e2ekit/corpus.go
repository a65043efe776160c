package e2ekit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// DASCorpus is the DAS conformance corpus, from a test's directory.
const DASCorpus = "../../testdata/das"

// DASCase is the part of a DAS corpus case (testdata/das/cases) the
// end-to-end tests read.
type DASCase struct {
	Name    string `json:"name"`
	Request struct {
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	} `json:"request"`
	Seed struct {
		Apply []struct {
			Account     string `json:"account"`
			Transaction string `json:"transaction"`
		} `json:"apply"`
	} `json:"seed"`
	Expected json.RawMessage `json:"expected_result"`
}

// Files is the case's fixture files in apply order, each once (a case may
// apply one file twice; a directory holds it once).
func (c *DASCase) Files() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range c.Seed.Apply {
		f := a.Account + a.Transaction
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// LoadDASCase reads the corpus case name.
func LoadDASCase(t *testing.T, name string) *DASCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(DASCorpus, "cases", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c DASCase
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("case %s: %v", name, err)
	}
	return &c
}

// Index makes a fresh embedded store under dir holding exactly the corpus
// files given (paths relative to DASCorpus): it copies them into
// dir/fixtures, runs `dasch migrate` and `dasch ingest --source files:`
// over that copy, checks that every file was indexed without a dead
// letter, and creates an API key. It returns the store URL and the key.
func Index(t *testing.T, ctx context.Context, bin, dir string, files []string) (storeURL, key string) {
	t.Helper()
	storeURL = "embedded:" + filepath.Join(dir, "data")
	src := filepath.Join(dir, "fixtures")
	var accounts, txs int
	var maxSlot uint64
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(DASCorpus, f))
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			Slot uint64 `json:"slot"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		maxSlot = max(maxSlot, head.Slot)
		if strings.HasPrefix(f, "transactions/") {
			txs++
		} else {
			accounts++
		}
		to := filepath.Join(src, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Run(t, ctx, bin, "migrate", "--store", storeURL)
	out := Run(t, ctx, bin, "ingest", "--store", storeURL, "--source", "files:"+src)
	want := fmt.Sprintf("(%d tx, %d accounts, 0 blocks)", txs, accounts)
	if !strings.Contains(out, want) || !strings.Contains(out, " 0 dead letters, indexed slot "+strconv.FormatUint(maxSlot, 10)) {
		t.Fatalf("ingest: %s\nwant %s, no dead letters, indexed slot %d", out, want, maxSlot)
	}
	key = LastLine(Run(t, ctx, bin, "keys", "create", "--store", storeURL, "--project", "e2e"))
	return storeURL, key
}

// ListIDs names each list member of a DAS list answer and its items' id
// member.
var ListIDs = map[string]string{"items": "id", "token_accounts": "address", "editions": "edition_address"}

// ExpectedList splits the case's expected_result, a list answer, into its
// members but the list (as encoding/json decodes them into an any), the
// list's item ids, and its items.
func (c *DASCase) ExpectedList(t *testing.T) (head map[string]any, ids []string, items []map[string]any) {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(c.Expected, &members); err != nil {
		t.Fatalf("case %s: %v", c.Name, err)
	}
	head = map[string]any{}
	for k, raw := range members {
		if idKey, ok := ListIDs[k]; ok {
			if err := json.Unmarshal(raw, &items); err != nil {
				t.Fatalf("case %s: %s: %v", c.Name, k, err)
			}
			ids = []string{}
			for _, it := range items {
				id, _ := it[idKey].(string)
				ids = append(ids, id)
			}
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		head[k] = v
	}
	if ids == nil {
		t.Fatalf("case %s: expected_result has no list", c.Name)
	}
	return head, ids, items
}
