package conformance

import (
	"context"
	"fmt"
	"io"

	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decoders"
	"github.com/dasch-labs/dasch/ingest/source"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// IngestIndexer indexes fixtures with the real pipeline: the raw and
// compressed-state decoders, then the state step, as `dasch ingest` does.
type IngestIndexer struct{}

// SeedTrees implements Indexer.
func (IngestIndexer) SeedTrees(ctx context.Context, s arrowstore.Store, trees io.Reader) error {
	return compressedstate.SeedTrees(ctx, s, trees)
}

// Index implements Indexer: one pipeline run over files, in order.
func (IngestIndexer) Index(ctx context.Context, s arrowstore.Store, files []string, forceSlot *uint64) error {
	cfg := ingest.Config{Store: s, Source: source.NewFileList(files), ForceSlot: forceSlot}
	if err := decoders.Configure(ctx, s, &cfg, decoders.Options{}); err != nil {
		return fmt.Errorf("configure compressed indexing: %w", err)
	}
	if _, err := ingest.Run(ctx, cfg); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}

// AssetIndexer indexes fixtures with the raw and digital-asset decoders
// only, as a DAS-only deployment would; it skips compressed-state
// configuration, which DAS cases do not use.
type AssetIndexer struct{}

// SeedTrees implements Indexer; DAS corpora have no trees.
func (AssetIndexer) SeedTrees(context.Context, arrowstore.Store, io.Reader) error { return nil }

// Index implements Indexer: one pipeline run over files, in order.
func (AssetIndexer) Index(ctx context.Context, s arrowstore.Store, files []string, forceSlot *uint64) error {
	cfg := ingest.Config{Store: s, Source: source.NewFileList(files), ForceSlot: forceSlot}
	if err := decoders.Configure(ctx, s, &cfg, decoders.Options{AssetsOnly: true}); err != nil {
		return err
	}
	if _, err := ingest.Run(ctx, cfg); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}
