package ingest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dasch-labs/dasch/schema"
	"github.com/dasch-labs/dasch/store"
)

// writeCheckpoint records that everything up to slot is committed. The
// table keeps the highest slot per name, so a lower value never moves the
// indexed slot back.
func writeCheckpoint(ctx context.Context, s store.Store, slot uint64) error {
	err := s.Exec(ctx, `INSERT INTO indexer_checkpoints (name, slot) VALUES ({name:String}, {slot:UInt64})`,
		store.Params{"name": schema.CheckpointMain, "slot": strconv.FormatUint(slot, 10)})
	if err != nil {
		return fmt.Errorf("write checkpoint at slot %d: %w", slot, err)
	}
	return nil
}

// readCheckpoint returns the slot the store is indexed up to, and whether
// it has a checkpoint at all.
func readCheckpoint(ctx context.Context, s store.Store) (uint64, bool, error) {
	res, err := s.Query(ctx, `SELECT max(slot), count() FROM indexer_checkpoints WHERE name = {name:String}`,
		store.Params{"name": schema.CheckpointMain})
	if err != nil {
		return 0, false, fmt.Errorf("read checkpoint: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 2 {
		return 0, false, fmt.Errorf("read checkpoint: %d rows", len(res.Rows))
	}
	slot, ok1 := res.Rows[0][0].(uint64)
	n, ok2 := res.Rows[0][1].(uint64)
	if !ok1 || !ok2 {
		return 0, false, fmt.Errorf("read checkpoint: unexpected types %T, %T", res.Rows[0][0], res.Rows[0][1])
	}
	return slot, n > 0, nil
}

// writeRewrite logs that the slots from..to, at or below the indexed
// slot, were derived again (schema.TableRewrites).
func writeRewrite(ctx context.Context, s store.Store, from, to uint64) error {
	err := s.Exec(ctx, `INSERT INTO indexer_rewrites (from_slot, to_slot) VALUES ({from:UInt64}, {to:UInt64})`,
		store.Params{"from": strconv.FormatUint(from, 10), "to": strconv.FormatUint(to, 10)})
	if err != nil {
		return fmt.Errorf("log rewrite of slots %d..%d: %w", from, to, err)
	}
	return nil
}
