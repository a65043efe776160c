package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-json"
)

// Case is one case file of the corpus (README section 4).
type Case struct {
	Name               string          `json:"name"`
	FixtureSets        []string        `json:"fixture_sets"`
	FixtureBlocks      []string        `json:"fixture_blocks"`
	IndexOrder         []string        `json:"index_order"`
	IndexOrderVariants [][]string      `json:"index_order_variants"`
	IndexAsSlot        *uint64         `json:"index_as_slot"`
	DummyBlockSlot     *uint64         `json:"dummy_block_slot"`
	Request            Request         `json:"request"`
	Pagination         *Pagination     `json:"pagination"`
	ExpectedResult     json.RawMessage `json:"expected_result"`
	ExpectedError      *ExpectedError  `json:"expected_error"`
	IgnorePaths        []string        `json:"ignore_paths"`
	Requires           []string        `json:"requires"`
	file               string
}

// Request is what goes into the JSON-RPC envelope.
type Request struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Pagination says how to follow cursors when the expected value spans pages.
type Pagination struct {
	CursorParam string `json:"cursor_param"`
	CursorFrom  string `json:"cursor_from"`
	ItemsFrom   string `json:"items_from"`
}

// ExpectedError is the error a case expects instead of a result.
type ExpectedError struct {
	Code         int    `json:"code"`
	Message      string `json:"message"`
	MessageMatch string `json:"message_match"` // "exact" or "contains"
}

// LoadCases reads DIR/cases/*.json, sorted by name.
func LoadCases(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list cases: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cases in %s", filepath.Join(dir, "cases"))
	}
	sort.Strings(files)
	out := make([]*Case, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read case: %w", err)
		}
		var c Case
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("case %s: %w", f, err)
		}
		if c.Name == "" {
			c.Name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		if c.Request.Method == "" {
			return nil, fmt.Errorf("case %s: no request method", f)
		}
		c.file = f
		out = append(out, &c)
	}
	return out, nil
}

// orders lists the transaction orders to index: the variants, or the one
// index order when the case gives none.
func (c *Case) orders() [][]string {
	if len(c.IndexOrderVariants) > 0 {
		return c.IndexOrderVariants
	}
	return [][]string{c.IndexOrder}
}

// hasParamsObject reports whether the request params are a JSON object.
func (c *Case) hasParamsObject() bool {
	return len(bytes.TrimSpace(c.Request.Params)) > 0 && bytes.TrimSpace(c.Request.Params)[0] == '{'
}
