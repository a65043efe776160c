package compressedbench

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/dasch-labs/dasch/ingest/arrowbatch"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/internal/storetest"
)

// BenchmarkDecodeChunk measures the ingest's Go side alone: one chunk of
// generated events through the compressed decoder into Arrow records, as
// loadDasch builds them (the events are built once, outside the timing).
//
//	go test ./bench/compressedbench -run '^$' -bench DecodeChunk -benchmem
func BenchmarkDecodeChunk(b *testing.B) {
	const n = 50_000
	ctx := context.Background()
	s := storetest.Open(b)
	p, err := NewPlan(GenConfig{Accounts: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := seedTrees(ctx, s, p); err != nil {
		b.Fatal(err)
	}
	dec, err := compressedstate.NewDecoder(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	// The whole plan is one chunk; its accounts are copied out of the
	// callback.
	var chunk Chunk
	if _, err := p.Stream(ctx, n, func(ch *Chunk) error {
		chunk.Accounts = append([]Account(nil), ch.Accounts...)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	evs := events(p, &chunk)
	builders := map[string]arrowbatch.Builder{}
	var names []string
	for _, t := range dec.Tables() {
		builders[t.Name] = t.New(memory.NewGoAllocator())
		names = append(names, t.Name)
	}
	defer func() {
		for _, bl := range builders {
			bl.Release()
		}
	}()
	for b.Loop() {
		jobs, err := decodeChunk(dec, builders, names, evs)
		if err != nil {
			b.Fatal(err)
		}
		releaseJobs(jobs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(chunk.Accounts)), "ns/account")
}

// BenchmarkEvents measures the bench's input alone: one chunk of
// generated accounts turned into parsed events (eventArena.events), the
// work loadDasch times as the phase "generate".
//
//	go test ./bench/compressedbench -run '^$' -bench Events
func BenchmarkEvents(b *testing.B) {
	const n = 200_000
	p, err := NewPlan(GenConfig{Accounts: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var chunk Chunk
	if _, err := p.Stream(context.Background(), n, func(ch *Chunk) error {
		chunk.Accounts = append([]Account(nil), ch.Accounts...)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	var a eventArena
	for b.Loop() {
		a.events(p, &chunk)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(chunk.Accounts)), "ns/account")
}
