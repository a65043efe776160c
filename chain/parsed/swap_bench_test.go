package parsed

import (
	"testing"

	"github.com/goccy/go-json"
)

// BenchmarkParseSwaps parses the real swap fixtures and encodes each
// answer, as ingest does; b.N counts transactions.
func BenchmarkParseSwaps(b *testing.B) {
	txs := fixtureTxs(b)
	var swaps []string
	for _, sig := range sortedKeys(txs) {
		if Parse(txs[sig]).Type == TypeSwap {
			swaps = append(swaps, sig)
		}
	}
	if len(swaps) < 10 {
		b.Fatalf("%d swap fixtures", len(swaps))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := json.Marshal(Parse(txs[swaps[i%len(swaps)]])); err != nil {
			b.Fatal(err)
		}
	}
}
