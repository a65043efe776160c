package prices_test

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/internal/storetest"
	"github.com/dasch-labs/dasch/prices"
)

// TestDocSQL runs the token price queries of docs/schema.md over a
// synthetic hour of swaps: the hourly price of a mint against the
// stablecoins, and through SOL.
func TestDocSQL(t *testing.T) {
	s := storetest.Open(t)
	bonk := solana.MustParsePubkey("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263")
	var series []swap
	series = append(series, trades(6, prices.SOL, prices.USDC, 150, 300, 100)...)
	series = append(series, trades(6, bonk, prices.USDC, 2, 100, 200)...)
	series = append(series, trades(6, bonk, prices.SOL, 0.01, 2, 300)...)
	insert(t, s, series)
	doc, _ := os.ReadFile("../docs/schema.md")
	sec := string(doc)[strings.Index(string(doc), "### Token prices"):]
	sec = sec[strings.Index(sec, "```sql")+6:]
	sec = sec[:strings.Index(sec, "```")]
	sec = strings.ReplaceAll(sec, "now()", "toDateTime(1700000000)")
	var qs []string
	for _, q := range strings.Split(sec, ";") {
		if strings.TrimSpace(q) != "" {
			qs = append(qs, q)
		}
	}
	// The top of token_prices (empty here), then the two hourly series:
	// one hour each, at 2 and 1.5 dollars.
	want := [][2]float64{{2, 600}, {1.5, 1800}}
	if len(qs) != 1+len(want) {
		t.Fatalf("%d queries in the docs, want %d", len(qs), 1+len(want))
	}
	for i, q := range qs {
		res, err := s.Query(context.Background(), q, nil)
		if err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
		if i == 0 {
			continue
		}
		w := want[i-1]
		if len(res.Rows) != 1 || math.Abs(res.Rows[0][1].(float64)-w[0]) > 1e-6 || math.Abs(res.Rows[0][2].(float64)-w[1]) > 1e-6 {
			t.Errorf("query %d: %v, want one hour at %v with volume %v", i, res.Rows, w[0], w[1])
		}
	}
}
