package asset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-json"
)

// corpusAssets are the getAsset answers of the DAS corpus, each given the
// members View edits (groups verified and not, collection metadata, token
// info, an inscription) so every option has something to act on.
func corpusAssets(t testing.TB) [][]byte {
	t.Helper()
	files, err := filepath.Glob("../testdata/das/cases/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("DAS corpus cases: %v (%d files)", err, len(files))
	}
	yes, no := true, false
	meta := json.RawMessage(`{"name":"Col \"x\"","symbol":"C"}`)
	val := "9ARngHhVaCtH5JFieRdSS5Y8cdZk2TBF4tfRTgsU2XQV"
	var docs [][]byte
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Expected json.RawMessage `json:"expected_result"`
			Request  struct {
				Method string `json:"method"`
			} `json:"request"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || c.Request.Method != "getAsset" {
			continue
		}
		var a Asset
		if err := json.Unmarshal(c.Expected, &a); err != nil || a.ID == "" {
			continue
		}
		a.LastIndexedSlot = nil
		plain, err := json.Marshal(&a)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, plain)
		a.Grouping = append(a.Grouping,
			Group{GroupKey: "collection", GroupValue: &val, Verified: &no},
			Group{GroupKey: "collection", GroupValue: &val, Verified: &yes, CollectionMetadata: meta},
			Group{GroupKey: "collection", GroupValue: nil, Verified: &no, CollectionMetadata: meta})
		if a.TokenInfo == nil {
			a.TokenInfo = &TokenInfo{Decimals: 6, TokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"}
		}
		a.Inscription = Object(`{"order":7,"content_type":"text/plain"}`)
		full, err := json.Marshal(&a)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, full)
	}
	if len(docs) < 20 {
		t.Fatalf("only %d corpus assets", len(docs))
	}
	return docs
}

// viewByDecoding is what ViewJSON must equal: decode, View, encode.
func viewByDecoding(doc []byte, opts Options) ([]byte, error) {
	var a Asset
	if err := json.Unmarshal(doc, &a); err != nil {
		return nil, err
	}
	return json.Marshal(View(&a, opts))
}

func TestViewJSON(t *testing.T) {
	for _, doc := range corpusAssets(t) {
		for _, opts := range allOptions() {
			want, err := viewByDecoding(doc, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ViewJSON([]byte("prefix"), doc, opts)
			if err != nil {
				t.Fatalf("%+v: %v\n%s", opts, err, doc)
			}
			if !bytes.Equal(got[6:], want) || string(got[:6]) != "prefix" {
				t.Fatalf("%+v:\n got %s\nwant %s", opts, got, want)
			}
		}
	}
}

func TestViewJSONErrors(t *testing.T) {
	for _, doc := range []string{
		``, `[]`, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,}`, `{"a" :1}`, `{"a":"x}`, `{"a":[1,2}`,
		`{"grouping":{}}`, `{"grouping":[{"verified":false}`, `{"grouping":[1]}`, `{"a":tru e}`, `{"a":}`,
		`{"a":1"b":2}`, `{"grouping":[{"a":1}{"b":2}]}`,
	} {
		if out, err := ViewJSON(nil, []byte(doc), Options{}); err == nil {
			t.Errorf("%q: no error (%s)", doc, out)
		}
	}
}

func TestWithSlot(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		slot uint64
		want string
	}{
		{`{"interface":"V1_NFT"}`, 0, `{"last_indexed_slot":0,"interface":"V1_NFT"}`},
		{`{}`, 18446744073709551615, `{"last_indexed_slot":18446744073709551615}`},
		{`{"a":1,"b":2}`, 309930554, `{"last_indexed_slot":309930554,"a":1,"b":2}`},
	} {
		if got := WithSlot(nil, []byte(tc.doc), tc.slot); string(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.doc, got, tc.want)
		}
	}
	// The same bytes as the struct's encoding.
	slot := uint64(42)
	a := Asset{Interface: "V1_NFT", ID: "x", LastIndexedSlot: &slot}
	want, _ := json.Marshal(&a)
	a.LastIndexedSlot = nil
	doc, _ := json.Marshal(&a)
	if got := WithSlot(nil, doc, 42); !bytes.Equal(got, want) {
		t.Errorf("%s, want %s", got, want)
	}
}

func FuzzViewJSON(f *testing.F) {
	for i, doc := range corpusAssets(f) {
		if i%4 == 1 {
			f.Add(doc, uint8(i))
		}
	}
	f.Add([]byte(`{"grouping":[{"verified":false},{"verified":true,"collection_metadata":{}}]}`), uint8(0))
	f.Fuzz(func(t *testing.T, doc []byte, m uint8) {
		opts := allOptions()[m%16]
		got, err := ViewJSON(nil, doc, opts)
		if err != nil {
			return
		}
		// Where doc is an asset's own encoding, the edit must equal the
		// decoded view.
		var a Asset
		if json.Unmarshal(doc, &a) != nil {
			return
		}
		if again, _ := json.Marshal(&a); !bytes.Equal(again, doc) {
			return
		}
		want, err := viewByDecoding(doc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	})
}
