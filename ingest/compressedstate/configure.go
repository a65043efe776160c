package compressedstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/dasch-labs/dasch/config"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Configure adds compressed-state indexing to cfg: the Decoder, resolving
// trees through state_trees, and the StateStep, to which each of opts is
// applied (StateStep.BalanceCache, …). An empty state_trees is first
// seeded with the default tree list (config/trees.json).
func Configure(ctx context.Context, s arrowstore.Writer, cfg *ingest.Config, opts ...func(*StateStep)) error {
	if cfg == nil {
		return errors.New("compressed: no ingest config")
	}
	n, err := countTrees(ctx, s)
	if err != nil {
		return fmt.Errorf("compressed: %w", err)
	}
	if n == 0 {
		if err := SeedTrees(ctx, s, bytes.NewReader(config.DefaultTrees())); err != nil {
			return fmt.Errorf("compressed: default trees: %w", err)
		}
	}
	d, err := NewDecoder(ctx, s)
	if err != nil {
		return err
	}
	cfg.Decoders = append(cfg.Decoders, d)
	step := NewStateStep()
	for _, o := range opts {
		o(step)
	}
	cfg.Steps = append(cfg.Steps, step)
	return nil
}
