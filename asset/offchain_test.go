package asset

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

var update = flag.Bool("update", false, "rewrite the golden files of the off-chain content tests")

const testCDN = "https://cdn.example/img/{uri}"

// TestApplyJSONGolden maps each document of testdata/offchain/docs to
// content, as an NFT whose on-chain name, symbol and standard are fixed,
// and compares the content with its golden file. The golden files follow
// the reference's rules; review a change to one before updating it.
func TestApplyJSONGolden(t *testing.T) {
	docs, err := filepath.Glob("../testdata/offchain/docs/*.json")
	if err != nil || len(docs) < 8 {
		t.Fatalf("documents: %v (%d)", err, len(docs))
	}
	for _, path := range docs {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c := NewContent("On-chain name", "ONC", "https://example.org/"+name+".json", Str("NonFungible"))
			if err := ApplyJSON(c, raw, ContentOptions{CDNTemplate: testCDN}); err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(c, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("../testdata/offchain/golden", name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("content differs from %s:\n%s", golden, got)
			}
		})
	}
}

// TestApplyJSONRules checks the rules one at a time.
func TestApplyJSONRules(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		cdn       string
		check     func(t *testing.T, c *Content)
	}{
		{"image first", `{"image":"https://x.org/b.gif","properties":{"files":["https://x.org/a.mp4","https://x.org/b.gif"]}}`, "",
			func(t *testing.T, c *Content) {
				if len(c.Files) != 2 || c.Files[0].URI != "https://x.org/b.gif" || c.Files[0].Mime != "image/gif" || c.Files[1].Mime != "video/mp4" {
					t.Errorf("files %+v", c.Files)
				}
			}},
		{"no extension is png", `{"image":"https://x.org/abc?ext=jpg"}`, "",
			func(t *testing.T, c *Content) {
				if len(c.Files) != 1 || c.Files[0].Mime != "image/png" {
					t.Errorf("files %+v", c.Files)
				}
			}},
		{"relative uri is png", `{"image":"pic.jpg"}`, "",
			func(t *testing.T, c *Content) {
				if c.Files[0].Mime != "image/png" {
					t.Errorf("files %+v", c.Files)
				}
			}},
		{"upper-case extension", `{"image":"https://x.org/A.JPG"}`, "",
			func(t *testing.T, c *Content) {
				if c.Files[0].Mime != "image/jpeg" {
					t.Errorf("files %+v", c.Files)
				}
			}},
		{"cdn only for images", `{"image":"https://x.org/a.png","animation_url":"https://x.org/a.mp4"}`, "https://cdn/{uri}",
			func(t *testing.T, c *Content) {
				if c.Files[0].CDNURI != "https://cdn/https://x.org/a.png" || c.Files[1].CDNURI != "" {
					t.Errorf("files %+v", c.Files)
				}
			}},
		{"null description kept", `{"description":null}`, "",
			func(t *testing.T, c *Content) {
				if string(c.Metadata.Description) != "null" || c.Metadata.Attributes != nil {
					t.Errorf("metadata %+v", c.Metadata)
				}
			}},
		{"on-chain name kept", `{"name":"off","symbol":"OFF","token_standard":"Fungible"}`, "",
			func(t *testing.T, c *Content) {
				if c.Metadata.Name != "n" || c.Metadata.Symbol != "s" || c.Metadata.TokenStandard != nil {
					t.Errorf("metadata %+v", c.Metadata)
				}
			}},
		{"whitespace compacted", "{\"attributes\" : [ { \"value\" : 1 } ] }", "",
			func(t *testing.T, c *Content) {
				if string(c.Metadata.Attributes) != `[{"value":1}]` {
					t.Errorf("attributes %s", c.Metadata.Attributes)
				}
			}},
		{"scalar document", `"just a string"`, "",
			func(t *testing.T, c *Content) {
				if len(c.Files) != 0 || len(c.Links) != 0 || c.Metadata.Description != nil {
					t.Errorf("content %+v", c)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewContent("n", "s", "https://x.org/j.json", nil)
			if err := ApplyJSON(c, []byte(tc.doc), ContentOptions{CDNTemplate: tc.cdn}); err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
	for _, bad := range []string{"", "{", `{"a":1}x`, "\xff\xfe{}", `{"image":"caf\xe9"}`} {
		c := NewContent("n", "s", "u", nil)
		if err := ApplyJSON(c, []byte(bad), ContentOptions{}); !errors.Is(err, ErrDocument) {
			t.Errorf("ApplyJSON(%q) = %v, want ErrDocument", bad, err)
		}
		if len(c.Files) != 0 || len(c.Links) != 0 {
			t.Errorf("ApplyJSON(%q) changed the content: %+v", bad, c)
		}
	}
}

// FuzzApplyJSON feeds the mapper arbitrary documents: it must not panic,
// and content it accepts must encode to compact JSON that ViewJSON reads
// back into what View gives.
func FuzzApplyJSON(f *testing.F) {
	docs, _ := filepath.Glob("../testdata/offchain/docs/*.json")
	for _, p := range docs {
		if raw, err := os.ReadFile(p); err == nil {
			f.Add(raw)
		}
	}
	f.Add([]byte(`{"properties":{"files":{"x":{"url":"u"}}}}`))
	f.Add([]byte(`{"image":"\u0000\"","description":"\ud800"}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		c := NewContent("n", "s", "u", nil)
		if err := ApplyJSON(c, doc, ContentOptions{CDNTemplate: "c/{uri}"}); err != nil {
			return
		}
		a := &Asset{Interface: InterfaceV1NFT, ID: "x", Content: c, Authorities: []Authority{}, Grouping: []Group{}, Creators: []Creator{}}
		enc, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if !stdjson.Valid(enc) {
			t.Fatalf("encoding is not JSON: %s", enc)
		}
		viewed, err := ViewJSON(nil, enc, Options{})
		if err != nil {
			t.Fatalf("ViewJSON: %v\n%s", err, enc)
		}
		want, err := json.Marshal(View(a, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(viewed, want) {
			t.Fatalf("ViewJSON %s\nwant     %s", viewed, want)
		}
	})
}
