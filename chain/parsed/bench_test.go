package parsed

import (
	"testing"

	"github.com/goccy/go-json"
)

// BenchmarkParse parses the demo block's transactions and encodes each
// answer, as ingest does; b.N counts transactions.
func BenchmarkParse(b *testing.B) {
	txs := fixtureTxs(b)
	var block []string
	for _, sig := range sortedKeys(txs) {
		if txs[sig].Slot == 270893658 && !txs[sig].IsVote {
			block = append(block, sig)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := json.Marshal(Parse(txs[block[i%len(block)]])); err != nil {
			b.Fatal(err)
		}
	}
}
