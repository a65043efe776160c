// Package decoders configures what an ingest run decodes beyond the raw
// decoder, which always runs: compressed state (its decoder and the state
// step that derives the read tables) and digital assets (their decoder and
// the step that folds each asset's state). dasch ingest,
// dasch serve --ingest and the conformance harness configure their runs
// here, so they index alike.
package decoders

import (
	"context"
	"errors"

	"github.com/dasch-labs/dasch/asset"
	"github.com/dasch-labs/dasch/chain/solana"
	"github.com/dasch-labs/dasch/ingest"
	"github.com/dasch-labs/dasch/ingest/assetstate"
	"github.com/dasch-labs/dasch/ingest/bubblegumtree"
	"github.com/dasch-labs/dasch/ingest/compressedstate"
	"github.com/dasch-labs/dasch/ingest/decode"
	"github.com/dasch-labs/dasch/ingest/parsedtx"
	"github.com/dasch-labs/dasch/ingest/solbalances"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// Options pick the decoder set. The zero value is the default one:
// compressed state and digital assets.
type Options struct {
	// AssetsOnly leaves compressed state out, as a deployment serving DAS
	// only would run.
	AssetsOnly bool
	// Step, when set, is applied to the compressed state step
	// (compressedstate.StateStep.BalanceCache, …).
	Step func(*compressedstate.StateStep)
	// Folded, when set, is told of every asset the asset state step folds
	// (assetstate.FoldStep.Folded).
	Folded func(ids []solana.Pubkey)
	// Content shapes the content folded from off-chain documents
	// (assetstate.FoldStep.Content).
	Content asset.ContentOptions
	// FoldStep, when set, is handed the asset state step made, for what
	// runs beside the pipeline and folds through it (the metadata
	// fetcher).
	FoldStep func(*assetstate.FoldStep)
	// NoParsedEvents leaves out the parsed transactions and their
	// address index (parsedtx), which only the parsed-events API reads.
	NoParsedEvents bool
}

// Configure adds the decoder set o picks to cfg, and the state step it
// needs; compressed state first seeds an empty state_trees with the
// default trees (compressedstate.Configure).
func Configure(ctx context.Context, s arrowstore.Writer, cfg *ingest.Config, o Options) error {
	if cfg == nil {
		return errors.New("decoders: no ingest config")
	}
	if !o.AssetsOnly {
		var opts []func(*compressedstate.StateStep)
		if o.Step != nil {
			opts = append(opts, o.Step)
		}
		if err := compressedstate.Configure(ctx, s, cfg, opts...); err != nil {
			return err
		}
	}
	cfg.Decoders = append(cfg.Decoders, assetstate.Decoder{})
	// The nodes of Bubblegum trees, which asset proofs are read from.
	cfg.Decoders = append(cfg.Decoders, bubblegumtree.Decoder{})
	// The lamports transactions leave in the accounts they name, for
	// showNativeBalance.
	cfg.Decoders = append(cfg.Decoders, solbalances.Decoder{})
	if !o.NoParsedEvents {
		// Every transaction parsed once, and filed by the addresses it
		// concerns, for the parsed-events API.
		cfg.Decoders = append(cfg.Decoders, parsedtx.Decoder{})
	}
	fold := &assetstate.FoldStep{Folded: o.Folded, Content: o.Content}
	if o.FoldStep != nil {
		o.FoldStep(fold)
	}
	cfg.Steps = append(cfg.Steps, fold)
	return nil
}

// Interest is what the decoders of cfg read, for sources that filter at the
// node: the union of every decoder's decode.Interest.
func Interest(cfg *ingest.Config) decode.Interest {
	var in []decode.Interest
	for _, d := range cfg.Decoders {
		if i, ok := d.(decode.Interested); ok {
			in = append(in, i.Interest())
		}
	}
	return decode.Merge(in...)
}
