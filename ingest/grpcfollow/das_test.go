package grpcfollow_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/ingest/source/geyser/geysertest"
)

// dasCase is the part of a DAS corpus case these tests read.
type dasCase struct {
	Name    string `json:"name"`
	Request struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	} `json:"request"`
	Seed struct {
		Apply []map[string]string `json:"apply"`
	} `json:"seed"`
	Expected json.RawMessage `json:"expected_result"`
}

// files is the case's fixture files in apply order, each once.
func (c *dasCase) files() []string {
	var out []string
	for _, a := range c.Seed.Apply {
		for _, k := range []string{"account", "transaction"} {
			if f, ok := a[k]; ok {
				p := filepath.Join(corpus, "das", f)
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// params are the request's, with the expected asset's id where the case
// leaves it null (the reference computed it at run time).
func (c *dasCase) params(t *testing.T) json.RawMessage {
	var p map[string]json.RawMessage
	if c.Request.Method != "getAsset" || json.Unmarshal(c.Request.Params, &p) != nil || string(p["id"]) != "null" {
		return c.Request.Params
	}
	var want struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(c.Expected, &want); err != nil {
		t.Fatal(err)
	}
	p["id"] = want.ID
	b, _ := json.Marshal(p)
	return b
}

func dasCases(t *testing.T) []*dasCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpus, "das", "cases", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no DAS cases: %v", err)
	}
	sort.Strings(files)
	var out []*dasCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c dasCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, &c)
	}
	return out
}

// Every DAS corpus case answers the same after following a Geyser stream
// of its fixtures as after ingesting them as files: fungible and
// non-fungible tokens, Token-2022 extensions, Token Metadata editions,
// MPL Core assets and collections with their plugins, inscriptions,
// compressed NFTs through every Bubblegum instruction.
func TestDASCasesMatchFiles(t *testing.T) {
	e := newEnv(t)
	n, errors := 0, 0
	for _, c := range dasCases(t) {
		files := c.files()
		if len(files) == 0 {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			e.t = t
			slots, err := geysertest.Slots(files)
			if err != nil {
				t.Fatal(err)
			}
			last := slots[len(slots)-1].Slot
			params := c.params(t)

			e.reset()
			fs := e.files(files, true)
			want := e.call(c.Request.Method, params)

			e.reset()
			srv := geysertest.Start(t, geysertest.Script{Slots: slots})
			gs := e.stream(srv, true, source.GRPCOptions{From: new(uint64(0)), To: last})
			got := e.call(c.Request.Method, params)
			if got != want {
				t.Fatalf("%s after the stream:\n%s\nafter files:\n%s", c.Request.Method, got, want)
			}
			if strings.HasPrefix(want, "error") {
				errors++
			}
			if gs.Accounts != fs.Accounts || gs.Txs != fs.Txs {
				t.Logf("the stream carried %d accounts and %d transactions of the %d and %d files: the rest is of programs no decoder reads",
					gs.Accounts, gs.Txs, fs.Accounts, fs.Txs)
			}
			if gs.DeadLetters != 0 || fs.DeadLetters != 0 {
				t.Errorf("dead letters: stream %d, files %d", gs.DeadLetters, fs.DeadLetters)
			}
			if gs.Slot != fs.Slot {
				t.Errorf("indexed slot: stream %d, files %d", gs.Slot, fs.Slot)
			}
			n++
		})
	}
	// Only the corpus's error cases answer an error.
	if n < 70 || errors > 2 {
		t.Errorf("%d cases compared, %d answering an error: want the corpus's (at least 70), nearly all assets", n, errors)
	}
}
