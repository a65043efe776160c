package asset

import (
	"bytes"
	stdjson "encoding/json"
	"testing"

	"github.com/goccy/go-json"
)

// TestWithPrice: the edited document is byte for byte the encoding of
// WithPriceInfo's asset, for corpus assets with token info, with and
// without a balance, and with a price_info already there; an asset
// without token info is copied as it is.
func TestWithPrice(t *testing.T) {
	balance, ata := uint64(2_500_000), "ata"
	tests := []struct {
		name string
		edit func(a *Asset)
	}{
		{"no token info", func(a *Asset) { a.TokenInfo = nil }},
		{"token info", func(a *Asset) { a.TokenInfo = &TokenInfo{Supply: 10, Decimals: 6, TokenProgram: "p"} }},
		{"balance", func(a *Asset) {
			a.TokenInfo = &TokenInfo{Supply: 10, Decimals: 6, TokenProgram: "p", Balance: &balance, AssociatedTokenAddress: &ata}
		}},
		{"price already there", func(a *Asset) {
			a.TokenInfo = &TokenInfo{Decimals: 9, Balance: &balance, PriceInfo: NewPriceInfo(7, 9, nil)}
		}},
	}
	docs := corpusAssets(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, doc := range docs[:min(len(docs), 20)] {
				var a Asset
				if err := json.Unmarshal(doc, &a); err != nil {
					t.Fatal(err)
				}
				tc.edit(&a)
				in, err := json.Marshal(&a)
				if err != nil {
					t.Fatal(err)
				}
				got, err := WithPrice(nil, in, 1.25)
				if err != nil {
					t.Fatalf("%s: %v", a.ID, err)
				}
				want, err := json.Marshal(WithPriceInfo(&a, 1.25))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s:\n got %s\nwant %s", a.ID, got, want)
				}
				if a.TokenInfo == nil && !bytes.Equal(got, in) {
					t.Fatalf("%s: changed without token info", a.ID)
				}
			}
		})
	}
	// The worth of a balance is in whole tokens.
	p := NewPriceInfo(1.25, 6, &balance)
	if p.TotalPrice == nil || *p.TotalPrice != 3.125 || p.Currency != "USDC" {
		t.Errorf("price info %+v, want total 3.125 USDC", p)
	}
}

// FuzzWithPrice: any input gives an error or a valid document. The
// standard library checks validity: goccy's Valid panics on some
// invalid UTF-8.
func FuzzWithPrice(f *testing.F) {
	f.Add([]byte(`{"id":"x","token_info":{"supply":1,"decimals":2,"balance":300}}`))
	f.Add([]byte(`{"token_info":{}}`))
	f.Add([]byte(`{"token_info":{"balance":-1}}`))
	f.Add([]byte(`{"token_info":{"decimals":999}}`))
	f.Add([]byte(`{"token_info":[]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := WithPrice(nil, doc, 2)
		if err == nil && stdjson.Valid(doc) && !stdjson.Valid(out) {
			t.Fatalf("%s gave %s", doc, out)
		}
	})
}
