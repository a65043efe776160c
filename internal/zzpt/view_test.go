package zzpt

import (
	"os"
	"testing"

	"github.com/goccy/go-json"

	"github.com/dasch-labs/dasch/asset"
)

func BenchmarkPage(b *testing.B) {
	raw, _ := os.ReadFile("/work/shared/corpus/das/cases/account_updates.json")
	var c struct {
		Expected json.RawMessage `json:"expected_result"`
	}
	json.Unmarshal(raw, &c)
	b.Logf("doc %d bytes", len(c.Expected))
	for i := 0; i < b.N; i++ {
		out := make([]*asset.Asset, 1000)
		for j := range out {
			var a asset.Asset
			if err := json.Unmarshal(c.Expected, &a); err != nil {
				b.Fatal(err)
			}
			out[j] = asset.View(&a, asset.Options{})
		}
		if _, err := json.Marshal(out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPageJSON(b *testing.B) {
	raw, _ := os.ReadFile("/work/shared/corpus/das/cases/account_updates.json")
	var c struct {
		Expected json.RawMessage `json:"expected_result"`
	}
	json.Unmarshal(raw, &c)
	var a asset.Asset
	json.Unmarshal(c.Expected, &a)
	doc, _ := json.Marshal(&a)
	for i := 0; i < b.N; i++ {
		out := make([]json.RawMessage, 1000)
		for j := range out {
			v, err := asset.ViewJSON(make([]byte, 0, len(doc)), doc, asset.Options{})
			if err != nil {
				b.Fatal(err)
			}
			out[j] = asset.WithSlot(nil, v, 12345)
		}
		if _, err := json.Marshal(out); err != nil {
			b.Fatal(err)
		}
	}
}
