package parsedtx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// benchBlocks is how many copies of the demo block (57 transactions,
// 46 of them not votes) one ingest run reads.
const benchBlocks = 40

// BenchmarkIngest runs the default decoder set over copies of the demo
// block with the parsed-events decoder and without; tx/s is the
// ingest rate.
func BenchmarkIngest(b *testing.B) {
	raw, err := os.ReadFile(demoBlock)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for i := range benchBlocks {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", 270893658+i)), raw, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, parsed := range []bool{false, true} {
		b.Run(fmt.Sprintf("parsed=%v", parsed), func(b *testing.B) {
			ctx := context.Background()
			s := storetest.Open(b)
			for b.Loop() {
				src, err := source.NewFiles(dir)
				if err != nil {
					b.Fatal(err)
				}
				cfg := ingest.Config{Store: s, Source: src}
				if err := decoders.Configure(ctx, s, &cfg, decoders.Options{NoParsedEvents: !parsed}); err != nil {
					b.Fatal(err)
				}
				if _, err := ingest.Run(ctx, cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchBlocks*57*b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}
