package ingest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dasch-labs/dasch/checkpoint"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/internal/rpcnode"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// BenchmarkFollowLag follows a loopback node that makes a slot every
// 400 ms (the demo's mainnet block, 57 transactions, at each) and
// measures how long after a slot appears at the node it is indexed (the
// checkpoint, which getIndexerSlot and every answer's context follow),
// with the default batch age (1 s) and a short one. Reports p50 / p99 lag
// in ms and the p50 in slot times (the reference, 400 ms).
func BenchmarkFollowLag(b *testing.B) {
	main, err := rpcnode.LoadBlocks(filepath.Join("..", "testdata", "demo", "blocks"))
	if err != nil || len(main) != 1 {
		b.Fatalf("demo block: %v", err)
	}
	var block []byte
	for _, blk := range main {
		block = blk
	}
	const slotTime, slots, first = 400 * time.Millisecond, 15, uint64(1000)
	blocks := map[uint64][]byte{}
	for s := first; s < first+slots; s++ {
		blocks[s] = block
	}
	for _, age := range []time.Duration{time.Second, 250 * time.Millisecond, 100 * time.Millisecond, 50 * time.Millisecond} {
		b.Run(fmt.Sprintf("batch-age=%s", age), func(b *testing.B) {
			var lags []time.Duration
			for b.Loop() {
				lags = followLag(b, blocks, first, slots, slotTime, age)
			}
			slices.Sort(lags)
			p50, p99 := lags[len(lags)/2], lags[min(len(lags)-1, len(lags)*99/100)]
			b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(p50)/float64(slotTime), "p50-slots")
		})
	}
}

// followLag runs one follow and returns each slot's lag.
func followLag(b *testing.B, blocks map[uint64][]byte, first uint64, slots int, slotTime, age time.Duration) []time.Duration {
	s := storetest.Open(b)
	n := rpcnode.New(blocks)
	defer n.Close()
	n.SetTip(first)
	src, err := source.NewRPC(n.URL())
	if err != nil {
		b.Fatal(err)
	}
	if err := src.Configure(source.RPCOptions{From: first, Poll: 20 * time.Millisecond}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := ingest.Config{Store: s, Source: src, BatchAge: age}
	if err := compressedstate.Configure(ctx, s, &cfg); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ingest.Run(ctx, cfg); done <- err }()
	appeared := map[uint64]time.Time{first: time.Now()}
	next := first + 1
	tick := time.NewTicker(slotTime)
	defer tick.Stop()
	var lags []time.Duration
	last := first + uint64(slots) - 1
	for seen := first; seen <= last; {
		select {
		case now := <-tick.C:
			if next <= last {
				n.SetTip(next)
				appeared[next] = now
				next++
			}
		case err := <-done:
			b.Fatalf("ingest stopped: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		indexed, err := checkpoint.IndexedSlot(ctx, s)
		if err != nil {
			b.Fatal(err)
		}
		for ; seen <= indexed && seen <= last; seen++ {
			lags = append(lags, time.Since(appeared[seen]))
		}
		if len(appeared) == slots && time.Since(appeared[last]) > time.Minute {
			b.Fatalf("slot %d not indexed a minute after it appeared (indexed %d)", last, indexed)
		}
	}
	cancel()
	<-done
	return lags
}
