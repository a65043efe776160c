package asset

import (
	"bytes"
	"testing"

	"github.com/goccy/go-json"
)

// allOptions is every combination of the display options rendering reads.
func allOptions() []Options {
	var out []Options
	for m := range 16 {
		out = append(out, Options{
			ShowUnverifiedCollections: m&1 != 0,
			ShowCollectionMetadata:    m&2 != 0,
			ShowFungible:              m&4 != 0,
			ShowInscription:           m&8 != 0,
		})
	}
	return out
}

// checkView asserts that for every combination of options, the asset
// rendered with Folded, stored as JSON and read back, then viewed with
// those options, is what rendering with them gives.
func checkView(t *testing.T, render func(Options) ([]byte, error)) {
	t.Helper()
	folded, err := render(Folded)
	if err != nil {
		t.Fatalf("render folded: %v", err)
	}
	var stored Asset
	if err := json.Unmarshal(folded, &stored); err != nil {
		t.Fatalf("read folded back: %v", err)
	}
	for _, opts := range allOptions() {
		want, err := render(opts)
		if err != nil {
			t.Fatalf("render %+v: %v", opts, err)
		}
		got, err := json.Marshal(View(&stored, opts))
		if err != nil {
			t.Fatal(err)
		}
		if err := jsonEqual(got, want); err != nil {
			t.Fatalf("view %+v: %v\n got: %s\nwant: %s", opts, err, got, want)
		}
		// The stored document edited as bytes gives the same bytes.
		edited, err := ViewJSON(nil, folded, opts)
		if err != nil {
			t.Fatalf("ViewJSON %+v: %v", opts, err)
		}
		if !bytes.Equal(edited, got) {
			t.Fatalf("ViewJSON %+v:\n got: %s\nwant: %s", opts, edited, got)
		}
	}
	if again, _ := json.Marshal(&stored); jsonEqual(again, folded) != nil {
		t.Fatalf("View modified the folded asset:\n%s\n%s", again, folded)
	}
}

func TestViewDropsWhatOptionsHide(t *testing.T) {
	yes, no := true, false
	a := &Asset{
		Grouping: []Group{
			{GroupKey: "collection", GroupValue: Str("A"), Verified: &yes, CollectionMetadata: json.RawMessage(`{"name":"A"}`)},
			{GroupKey: "collection", GroupValue: Str("B"), Verified: &no},
		},
		TokenInfo:   &TokenInfo{},
		Inscription: Object(`{}`),
	}
	v := View(a, Options{})
	if len(v.Grouping) != 1 || v.Grouping[0].Verified != nil || v.Grouping[0].CollectionMetadata != nil {
		t.Errorf("grouping %+v", v.Grouping)
	}
	if v.TokenInfo != nil || v.Inscription != nil {
		t.Errorf("token info %v inscription %s", v.TokenInfo, v.Inscription)
	}
	if len(a.Grouping) != 2 || a.Grouping[0].Verified == nil || a.TokenInfo == nil {
		t.Error("View changed its input")
	}
	if v := View(a, Folded); len(v.Grouping) != 2 || v.TokenInfo == nil || v.Inscription == nil {
		t.Errorf("Folded view dropped members: %+v", v)
	}
}
