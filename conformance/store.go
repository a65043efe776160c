package conformance

import (
	"context"
	"fmt"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// reset empties every table but the API keys (so one key serves the whole
// run) and re-applies the migrations. Empty tables are left alone: a case
// writes a handful, and truncating all of them for every order dominated
// the run. Tables are truncated one by one:
// TRUNCATE ALL TABLES leaves later merges failing on this engine.
func reset(ctx context.Context, s store.Store) error {
	res, err := s.Query(ctx, `SELECT name FROM system.tables
		WHERE database = currentDatabase() AND engine NOT IN ('MaterializedView', 'View')
		AND name NOT IN ({projects:String}, {keys:String})
		AND (total_rows IS NULL OR total_rows > 0)`,
		store.Params{"projects": schema.TableProjects, "keys": schema.TableKeys})
	if err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	for _, r := range res.Rows {
		if err := s.Exec(ctx, "TRUNCATE TABLE `"+r[0].(string)+"`", nil); err != nil {
			return fmt.Errorf("empty %s: %w", r[0], err)
		}
	}
	if _, err := schema.Migrate(ctx, s); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// zeroHash is base58 of 32 zero bytes, the dummy block's hashes.
const zeroHash = "11111111111111111111111111111111"

// dummyBlock inserts the empty block at slot 0 that Photon's tests start
// from, and marks slot 0 indexed.
func dummyBlock(ctx context.Context, s store.Store) error {
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
