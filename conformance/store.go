package conformance

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
	"github.com/dasch-labs/dasch/store/arrowstore"
)

// reset empties every table but the API keys (so one key serves the whole
// run), as the migrations leave a fresh store (schema.Empty). The store is
// migrated once, when the harness starts.
func reset(ctx context.Context, s arrowstore.Store) error {
	if err := schema.Empty(ctx, s, schema.TableProjects, schema.TableKeys); err != nil {
		return fmt.Errorf("empty store: %w", err)
	}
	return nil
}

// zeroHash is base58 of 32 zero bytes, the dummy block's hashes.
const zeroHash = "11111111111111111111111111111111"

// dummyBlock inserts the empty block at slot 0 that Photon's tests start
// from, and marks slot 0 indexed.
func dummyBlock(ctx context.Context, s arrowstore.Store) error {
	err := s.Exec(ctx, `INSERT INTO blocks (slot, parent_slot, blockhash, previous_blockhash, block_height, block_time, tx_count)
		VALUES (0, 0, {h:String}, {h:String}, 0, 0, 0)`, store.Params{"h": zeroHash})
	if err != nil {
		return fmt.Errorf("dummy block: %w", err)
	}
	err = s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ({n:String}, 0)`,
		store.Params{"n": schema.CheckpointMain})
	if err != nil {
		return fmt.Errorf("dummy block checkpoint: %w", err)
	}
	return nil
}
